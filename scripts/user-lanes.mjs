// Projects of users who are not the ones install-as-user.mjs makes one package at a time, each one
// project for many packages (so each costs one install):
//   - a CommonJS TypeScript backend (`"type": "commonjs"`, `module: nodenext`) that type-checks
//     `import x = require('@ewp/…')` of every public entry point, compiles, and runs the `require()`s
//     on this Node (require(esm): Node >= 20.19 / >= 22.12);
//   - an app on zod 3 (zod@3.25.76, the whole tree overridden to it) that runs the example.mjs of every
//     binding whose framework accepts zod 3;
//   - the lowest-versions lane: each binding's example, and its own tests, on the oldest version of every
//     framework peer its ranges allow.
// Used by scripts/install-as-user.mjs (and scripts/lowest-peers.mjs); the packages must be built and packed.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pnpmCommand } from './pnpm.mjs';
import { mapLimit, run } from './run-process.mjs';
import { ensureNode } from './test-node-lane.mjs';
import { ROOT, typedEntryPoints } from './workspace.mjs';

/** Registry failures worth another try (the mirror answers ETARGET for a version it has not fetched yet). */
const REGISTRY_HICCUP =
  /ETARGET|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|ERR_SOCKET_TIMEOUT|E50[0-4]|ERR_PNPM_FETCH_5\d\d|ERR_PNPM_META_FETCH_FAIL|ERR_PNPM_NO_MATCHING_VERSION/;

/** `pnpm install` in `dir`, retried twice on a registry hiccup; throws with the output's tail. */
export async function pnpmInstall(dir) {
  const env = { ...process.env, NODE_PATH: '', COREPACK_ENABLE_STRICT: '0' };
  delete env.npm_config_prefix;
  const [cmd, args] = pnpmCommand(['install', '--prefer-offline', '--config.strict-peer-dependencies=false']);
  let install;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt) await new Promise((resolve) => setTimeout(resolve, attempt * 20_000));
    install = await run(cmd, args, { cwd: dir, env, timeoutMs: 600_000 });
    if (install.code === 0 || !REGISTRY_HICCUP.test(`${install.stdout}\n${install.stderr}`)) break;
  }
  if (install.code !== 0) {
    throw new Error(`pnpm install exited ${install.code}: ${`${install.stdout}\n${install.stderr}`.trim().split('\n').slice(-6).join(' | ')}`);
  }
  return install;
}

/** The workspace root's devDependency version of `name` (typescript, @types/node). */
function rootVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies[name];
}

/** The required peers of `pkg`, at the versions the workspace tests (its devDependencies). */
export function requiredPeers(pkg) {
  const peers = {};
  for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
    if (pkg.manifest.peerDependenciesMeta?.[name]?.optional) continue;
    if (name.startsWith('@ewp/')) continue;
    peers[name] = pkg.manifest.devDependencies?.[name] ?? range;
  }
  return peers;
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * One CommonJS TypeScript project with every public package (and their required peers): `tsc` must
 * type the `require`s, and the compiled CommonJS must load each entry point with `require()` and get
 * the same exports as `import()`. Resolves `[{ name, ok, detail }]`, one per package.
 */
export async function requireFromCommonJs(packages, tarballs, dir) {
  mkdirSync(join(dir, 'src'), { recursive: true });
  const local = Object.fromEntries([...tarballs].map(([name, tarball]) => [name, `file:${tarball}`]));
  const dependencies = { typescript: rootVersion('typescript'), '@types/node': rootVersion('@types/node') };
  // Optional peers too: the entry points that need them (`/testing` needs vitest, `/middleware` needs
  // langchain) are required here as well.
  for (const pkg of packages) {
    for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
      dependencies[name] = local[name] ?? pkg.manifest.devDependencies?.[name] ?? range;
    }
  }
  for (const pkg of packages) dependencies[pkg.name] = local[pkg.name];
  writeJson(join(dir, 'package.json'), {
    name: 'cjs-user-project',
    version: '1.0.0',
    private: true,
    type: 'commonjs',
    dependencies,
    pnpm: { overrides: local, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] },
  });
  // `module: node16` cannot type a require of an ES module at all (TypeScript models Node 16, before
  // require(esm)); `nodenext` (TypeScript >= 5.8) and `node20` can, so that is what a CJS backend uses.
  writeJson(join(dir, 'tsconfig.json'), {
    compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, outDir: 'out', rootDir: 'src', types: ['node'], skipLibCheck: true },
    include: ['src'],
  });
  const entries = packages.flatMap((pkg) =>
    typedEntryPoints(pkg).map((e) => ({ pkg, specifier: e.subpath === '.' ? pkg.name : `${pkg.name}/${e.subpath.slice(2)}` })),
  );
  // Each entry point in its own file, so a failure names its package.
  for (const [i, { specifier }] of entries.entries()) {
    writeFileSync(
      join(dir, 'src', `entry${i}.ts`),
      [
        `import assert = require('node:assert');`,
        `import loaded = require(${JSON.stringify(specifier)});`,
        '',
        '// The namespace require() returns is typed, and matches what import() gives.',
        'export async function check(): Promise<number> {',
        `  const imported: typeof loaded = await import(${JSON.stringify(specifier)});`,
        '  assert.deepStrictEqual(Object.keys(loaded).sort(), Object.keys(imported).sort());',
        '  const names: (keyof typeof loaded)[] = Object.keys(loaded) as (keyof typeof loaded)[];',
        `  assert.ok(names.length > 0, ${JSON.stringify(`${specifier} exports nothing`)});`,
        '  return names.length;',
        '}',
        '',
      ].join('\n'),
    );
  }
  writeFileSync(
    join(dir, 'src', 'index.ts'),
    [
      `const entries: [string, () => Promise<number>][] = [`,
      ...entries.map(({ specifier }, i) => `  [${JSON.stringify(specifier)}, () => require('./entry${i}').check()],`),
      '];',
      'async function main(): Promise<void> {',
      '  for (const [specifier, check] of entries) {',
      '    try {',
      '      console.log(JSON.stringify({ specifier, ok: true, exports: await check() }));',
      '    } catch (error) {',
      '      console.log(JSON.stringify({ specifier, ok: false, error: String((error as Error).message ?? error).split("\\n")[0] }));',
      '    }',
      '  }',
      '}',
      'void main();',
      '',
    ].join('\n'),
  );
  const all = (detail) => packages.map((pkg) => ({ name: pkg.name, ok: false, detail }));
  let install;
  try {
    install = await pnpmInstall(dir);
  } catch (error) {
    return all(error.message);
  }
  const tsc = await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, timeoutMs: 300_000 });
  const tscErrors = `${tsc.stdout}\n${tsc.stderr}`
    .split('\n')
    .filter((l) => /error TS/.test(l))
    .map((l) => l.replace(/'[^']*node_modules\/\.pnpm\/[^']*\/node_modules\//g, "'node_modules/"));
  // tsc emits even when it reports errors, so one package's type error does not hide the others' runs.
  const exec = existsSync(join(dir, 'out', 'index.js'))
    ? await run(process.execPath, [join(dir, 'out', 'index.js')], { cwd: dir, timeoutMs: 120_000 })
    : { code: -1, stdout: '', stderr: `tsc emitted nothing (exit ${tsc.code}): ${tsc.stdout.slice(-300)}` };
  const outcome = new Map();
  for (const line of exec?.stdout.split('\n') ?? []) {
    if (line.startsWith('{')) {
      const r = JSON.parse(line);
      outcome.set(r.specifier, r);
    }
  }
  const timing = `one install for all in ${(install.ms / 1000).toFixed(0)} s, tsc ${(tsc.ms / 1000).toFixed(1)} s`;
  return packages.map((pkg) => {
    const mine = entries.map((e, i) => ({ ...e, i })).filter((e) => e.pkg === pkg);
    const typeErrors = tscErrors.filter((l) => mine.some((e) => l.includes(`entry${e.i}.ts`)));
    if (typeErrors.length) return { name: pkg.name, ok: false, detail: `tsc (module: nodenext, CommonJS): ${typeErrors.slice(0, 3).join(' | ')}` };
    const failed = mine
      .map(
        (e) =>
          outcome.get(e.specifier) ?? {
            specifier: e.specifier,
            ok: false,
            error: `no result (node exited ${exec.code}: ${exec.stderr.trim().split('\n').slice(-3).join(' | ')})`,
          },
      )
      .filter((r) => !r.ok);
    if (failed.length) return { name: pkg.name, ok: false, detail: failed.map((r) => `require('${r.specifier}'): ${r.error}`).join('; ') };
    return {
      name: pkg.name,
      ok: true,
      detail: `${mine.map((e) => `require('${e.specifier}')`).join(', ')} typed and loaded on Node ${process.versions.node}; ${timing}`,
    };
  });
}

/** The zod 3 release the zod 3 lane installs: the first with the complete `zod/v4` API. */
export const ZOD3 = '3.25.76';

/** Whether a `^3.x.y || …` range admits ZOD3 (the only range forms the manifests use). */
export function admitsZod3(range) {
  const [, minor, patch] = ZOD3.split('.').map(Number);
  return range.split('||').some((part) => {
    const m = /^\^3\.(\d+)\.(\d+)$/.exec(part.trim());
    return m !== null && (Number(m[1]) < minor || (Number(m[1]) === minor && Number(m[2]) <= patch));
  });
}

/** The packages example.mjs imports besides `pkg`: @ewp ones from the tarballs, others at the version `pkg` depends on or tests with. */
function exampleImports(pkg, local) {
  const code = readFileSync(join(pkg.path, 'example.mjs'), 'utf8');
  const deps = {};
  for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (specifier.startsWith('node:') || specifier.startsWith('.')) continue;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (name === pkg.name) continue;
    const m = pkg.manifest;
    deps[name] = local[name] ?? m.dependencies?.[name] ?? m.devDependencies?.[name] ?? m.peerDependencies?.[name];
  }
  return deps;
}

/**
 * An app on zod 3: every package whose `zod` peer admits zod@3.25.76 is installed with it into one
 * project (frameworks at the versions the workspace tests), each package's zod must resolve to that
 * 3.25.76 (one zod in the app, no second copy), and each example.mjs runs there. Resolves
 * `[{ name, ok, detail }]`.
 */
export async function onZod3(packages, tarballs, dir) {
  const chosen = packages.filter((p) => p.manifest.peerDependencies?.zod && admitsZod3(p.manifest.peerDependencies.zod));
  if (chosen.length === 0) return [];
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries([...tarballs].map(([name, tarball]) => [name, `file:${tarball}`]));
  const dependencies = {};
  for (const pkg of chosen) Object.assign(dependencies, requiredPeers(pkg), exampleImports(pkg, local));
  for (const pkg of chosen) dependencies[pkg.name] = local[pkg.name];
  dependencies.zod = ZOD3;
  writeJson(join(dir, 'package.json'), {
    name: 'zod3-user-project',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies,
    pnpm: { overrides: local, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] },
  });
  for (const pkg of chosen) copyFileSync(join(pkg.path, 'example.mjs'), join(dir, `example-${pkg.dir.split('/').pop()}.mjs`));
  let install;
  try {
    install = await pnpmInstall(dir);
  } catch (error) {
    return chosen.map((pkg) => ({ name: pkg.name, ok: false, detail: error.message }));
  }
  // pnpm installs past a peer conflict (strict-peer-dependencies off), but names it: a zod peer that
  // refuses zod 3 is what this lane exists to catch.
  const zodPeerLines = `${install.stdout}\n${install.stderr}`.split('\n').filter((l) => /unmet peer zod@|zod@\S+.*unmet peer/i.test(l));
  const out = [];
  for (const pkg of chosen) {
    if (zodPeerLines.length) {
      out.push({
        name: pkg.name,
        ok: false,
        detail: `zod ${ZOD3} is refused by a peer range: ${zodPeerLines
          .slice(0, 3)
          .map((l) => l.trim())
          .join(' | ')}`,
      });
      continue;
    }
    // The zod the package itself loads, resolved from inside its installed directory.
    const probe = `import { createRequire } from 'node:module'; const r = createRequire(createRequire(import.meta.url).resolve(${JSON.stringify(`${pkg.name}/package.json`)})); console.log(r('zod/package.json').version);`;
    const zod = await run(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir, timeoutMs: 30_000 });
    const version = zod.stdout.trim();
    if (version !== ZOD3) {
      out.push({
        name: pkg.name,
        ok: false,
        detail: `${pkg.name} loads zod ${version || `? (${zod.stderr.trim().split('\n').pop()})`}, not the app's ${ZOD3}`,
      });
      continue;
    }
    const file = `example-${pkg.dir.split('/').pop()}.mjs`;
    const example = await run(process.execPath, [file], { cwd: dir, timeoutMs: 120_000 });
    if (example.code !== 0) {
      out.push({
        name: pkg.name,
        ok: false,
        detail: `${file} exited ${example.code} with zod ${ZOD3}: ${`${example.stderr}\n${example.stdout}`.trim().split('\n').slice(-6).join(' | ')}`,
      });
    } else
      out.push({
        name: pkg.name,
        ok: true,
        detail: `zod ${version}; one install for all in ${(install.ms / 1000).toFixed(0)} s, example ${(example.ms / 1000).toFixed(1)} s`,
      });
  }
  return out;
}

/**
 * The oldest version a range admits: the lowest bound among its `||` alternatives, each `^x.y.z`,
 * `~x.y.z`, `>=x.y.z …` or `x.y.z` (the forms the manifests use); throws on anything else so a new
 * form is noticed rather than skipped.
 */
export function lowestAllowed(range) {
  const bounds = range.split('||').map((part) => {
    const m = /^(?:\^|~|>=)?\s*(\d+)\.(\d+)\.(\d+)(?:\s+<\S+)?$/.exec(part.trim());
    if (!m) throw new Error(`lowestAllowed: cannot read the range "${range}"`);
    return [Number(m[1]), Number(m[2]), Number(m[3])];
  });
  bounds.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return bounds[0].join('.');
}

/**
 * Optional peers a binding's tests load whose devDependency is a range: installed at its newest, such a
 * peer can need a newer required peer than the oldest allowed (langchain 1.5 needs @langchain/core 1.2),
 * a pair langchain's own peer range rules out, so the lane takes them to their oldest allowed version too.
 */
const OPTIONAL_AT_OLDEST = { 'packages/langchain': ['langchain'] };

/**
 * The packages with a framework peer, each with `lowest`: every required peer (zod and vitest aside: the
 * zod 3 lane and the workspace cover zod's two ends, vitest is a test runner) at the oldest version its
 * range admits.
 */
function lowestPeerLanes(packages) {
  return packages
    .filter((p) => Object.keys(requiredPeers(p)).some((n) => n !== 'zod' && n !== 'vitest'))
    .map((pkg) => {
      const lowest = {};
      for (const name of [...Object.keys(requiredPeers(pkg)), ...(OPTIONAL_AT_OLDEST[pkg.dir] ?? [])]) {
        if (name !== 'zod' && name !== 'vitest') lowest[name] = lowestAllowed(pkg.manifest.peerDependencies[name]);
      }
      return { pkg, lowest };
    });
}

/**
 * The lowest-versions lane: for every package with a framework peer, a fresh project with each required
 * peer (zod aside: the zod 3 lane and the workspace cover its two ends) at the oldest version its range
 * admits, and the package's example.mjs run there. Proves the bottom of each peer range; the other
 * installs prove the top. Resolves `[{ name, ok, detail }]`.
 */
export async function onLowestPeers(packages, tarballs, dir) {
  const local = Object.fromEntries([...tarballs].map(([name, tarball]) => [name, `file:${tarball}`]));
  return mapLimit(lowestPeerLanes(packages), 2, async ({ pkg, lowest }) => {
    const project = join(dir, pkg.dir.split('/').pop());
    mkdirSync(project, { recursive: true });
    writeJson(join(project, 'package.json'), {
      name: 'lowest-peers-user-project',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { ...requiredPeers(pkg), ...exampleImports(pkg, local), ...lowest, [pkg.name]: local[pkg.name] },
      // The oldest peers everywhere in the tree (a transitive copy could otherwise be newer).
      pnpm: { overrides: { ...local, ...lowest }, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] },
    });
    copyFileSync(join(pkg.path, 'example.mjs'), join(project, 'example.mjs'));
    const versions = Object.entries(lowest)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ');
    try {
      await pnpmInstall(project);
    } catch (error) {
      return { name: pkg.name, ok: false, detail: `${versions}: ${error.message}` };
    }
    const example = await run(process.execPath, ['example.mjs'], { cwd: project, timeoutMs: 120_000 });
    if (example.code !== 0) {
      return {
        name: pkg.name,
        ok: false,
        detail: `example.mjs exited ${example.code} on ${versions}: ${`${example.stderr}\n${example.stdout}`.trim().split('\n').slice(-6).join(' | ')}`,
      };
    }
    return { name: pkg.name, ok: true, detail: `example ran on ${versions}` };
  });
}

/**
 * Test files of a store binding's `-testing` package that drive the real client (the binding's own tests
 * run on its types and doubles): what the lane adds for it. Its store suites stay in the main run.
 */
const CLIENT_TESTS = {
  'packages/mem0': ['packages/mem0-testing/src/oss-memory.test.ts', 'packages/mem0-testing/src/hosted-client.test.ts'],
  'packages/zep': ['packages/zep-testing/src/zep-adapter.test.ts'],
};

/**
 * Test-only devDependencies pinned newer than a binding's oldest allowed peer can load: @mastra/memory
 * 1.31.0 imports from @mastra/core/storage what 1.42.0 lacks, though its peer range says >=1.4.1. The
 * lane installs the version released with that oldest peer instead (its own devDependency names it).
 */
const TEST_DEPS_AT_OLDEST = { 'packages/mastra': { '@mastra/memory': '1.20.3' } };

/**
 * The lowest-versions lane's tests: for every package with a framework peer, a scratch project with what
 * its tests install (the devDependencies and dependencies of its test folders, no @ewp package, no
 * types) with each required framework peer at its oldest allowed version (overridden in the whole tree),
 * and the package's own tests (for Mem0 and Zep also CLIENT_TESTS: the framework suite's tool contract,
 * the gate and record paths, the real client) run from the workspace's sources with those packages
 * loaded from that project (vitest.lowest-peers.config.ts), one vitest run per package, two at a time;
 * a package whose `engines` need Node 22 runs under the Node 22 lane's binary. Resolves
 * `[{ name, ok, detail }]`; a failure names the peers and versions it ran on.
 */
export async function testsOnLowestPeers(packages, dir) {
  const versions = (lowest) =>
    Object.entries(lowest)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ');
  return mapLimit(lowestPeerLanes(packages), 2, async ({ pkg, lowest }) => {
    const on = versions(lowest);
    const fail = (detail) => ({ name: pkg.name, ok: false, detail });
    const client = CLIENT_TESTS[pkg.dir] ?? [];
    const dirs = [pkg.dir, ...new Set(client.map((f) => f.split('/').slice(0, 2).join('/')))];
    const project = join(dir, pkg.dir.split('/').pop());
    const dependencies = {};
    for (const d of dirs) {
      const m = JSON.parse(readFileSync(join(ROOT, d, 'package.json'), 'utf8'));
      for (const [name, range] of Object.entries({ ...m.dependencies, ...m.devDependencies })) {
        if (!name.startsWith('@ewp/') && !name.startsWith('@types/') && !range.startsWith('workspace:')) dependencies[name] = range;
      }
    }
    Object.assign(dependencies, TEST_DEPS_AT_OLDEST[pkg.dir]);
    mkdirSync(project, { recursive: true });
    writeJson(join(project, 'package.json'), {
      name: 'lowest-peers-tests',
      version: '1.0.0',
      private: true,
      type: 'module',
      dependencies: { ...dependencies, ...lowest },
      pnpm: { overrides: lowest, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] },
    });
    rmSync(join(project, 'redirected.txt'), { force: true });
    try {
      await pnpmInstall(project);
    } catch (error) {
      return fail(`${on}: ${error.message}`);
    }
    // The install must have given the oldest versions (an override that did not take would test the newest).
    for (const [name, version] of Object.entries(lowest)) {
      const got = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version;
      if (got !== version) return fail(`${name} installed at ${got}, not its oldest allowed ${version}`);
    }
    let node = process.execPath;
    try {
      if (Number(/(\d+)/.exec(pkg.manifest.engines?.node ?? '')?.[1] ?? 0) >= 22) node = ensureNode(22);
    } catch (error) {
      return fail(`no Node 22 for its tests: ${error.message}`);
    }
    const report = join(project, 'vitest-report.json');
    const vitest = await run(
      node,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'vitest.lowest-peers.config.ts',
        '--reporter=json',
        `--outputFile.json=${report}`,
        `${pkg.dir}/`,
        ...client,
      ],
      { cwd: ROOT, env: { ...process.env, EWP_LOWEST_PEERS: JSON.stringify([{ dirs, project }]) }, timeoutMs: 600_000 },
    );
    const files = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).testResults : [];
    const rel = (f) => f.name.slice(ROOT.length + 1);
    const tests = files.flatMap((f) => f.assertionResults.map((t) => ({ ...t, file: rel(f) })));
    const failed = [
      ...files
        // A file that failed with no failed test: it did not load, or its setup (beforeAll) failed and
        // vitest reported its tests as skipped; either way nothing in it ran.
        .filter((f) => f.status === 'failed' && !f.assertionResults.some((t) => t.status === 'failed'))
        .map((f) => `${rel(f)} (did not run: ${String(f.message).split('\n')[0]})`),
      ...tests.filter((t) => t.status === 'failed').map((t) => `${t.file} > ${t.fullName}: ${String(t.failureMessages?.[0] ?? '').split('\n')[0]}`),
    ];
    if (files.length === 0) {
      return fail(`no test ran on ${on} (vitest exited ${vitest.code}: ${`${vitest.stderr}\n${vitest.stdout}`.trim().split('\n').slice(-6).join(' | ')})`);
    }
    if (failed.length) return fail(`${failed.length} failed of ${tests.length} tests on ${on}: ${failed.slice(0, 5).join('; ')}`);
    const redirected = existsSync(join(project, 'redirected.txt')) ? readFileSync(join(project, 'redirected.txt'), 'utf8').split('\n') : [];
    const unloaded = Object.keys(lowest).filter((n) => !redirected.includes(n));
    if (unloaded.length) return fail(`the tests never loaded ${unloaded.join(', ')} from the project of oldest peers, so they prove nothing about ${on}`);
    const passed = tests.filter((t) => t.status === 'passed').length;
    const skipped = tests.length - passed;
    return {
      name: pkg.name,
      ok: true,
      detail: `${passed} tests passed${skipped ? `, ${skipped} skipped` : ''} in ${files.length} files on ${on}, Node ${node === process.execPath ? process.versions.node : '22'}; vitest ${(vitest.ms / 1000).toFixed(0)} s`,
    };
  });
}
