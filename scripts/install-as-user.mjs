// Installed as users install: every public package is packed, then installed ALONE (with its required
// peer dependencies and whatever its example imports, as its README tells users) into a fresh temporary
// project, once with npm and once with pnpm, and the package's example runs there. A peer-dependency
// warning fails the install.
//
// Beside them (scripts/user-lanes.mjs): one CommonJS TypeScript project requires every package, one app
// on zod 3 runs the examples of the bindings that accept it, and the lowest-versions lane runs each
// binding's example, and its own tests, on the oldest version of every framework peer its ranges allow.
//
// The example of a package is its `example.mjs` (it imports the package by name, runs offline, exits 0;
// one that needs a service, like Zep, says what it needs and exits 0 when it is not configured), and its
// README shows that file verbatim in a ```js block (docs/releasing.md).
//
//   node scripts/install-as-user.mjs [--only @ewp/x,@ewp/y] [--results FILE]   packages must be built
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckResults, option } from './check-results.mjs';
import { hasNodeSqlite } from './node-sqlite.mjs';
import { packPackages } from './pack-packages.mjs';
import { pnpmCommand } from './pnpm.mjs';
import { mapLimit, run } from './run-process.mjs';
import { onLowestPeers, onZod3, requireFromCommonJs, testsOnLowestPeers } from './user-lanes.mjs';
import { publicPackages, typedEntryPoints } from './workspace.mjs';

const results = new CheckResults('installed as users install');
const scratch = mkdtempSync(join(tmpdir(), 'ewp-user-install-'));
const only = option('only')?.split(',');

/** Install output that means a peer dependency is missing or conflicting. */
const PEER_WARNING = /ERESOLVE|unmet peer|missing peer|conflicting peer|Issues with peer dependencies|incorrect peer|peer dep(endency)? missing/i;

/** The README must show example.mjs verbatim; returns what is wrong, or undefined. */
function readmeShowsExample(pkg) {
  const example = join(pkg.path, 'example.mjs');
  if (!existsSync(example)) {
    return `${pkg.dir}/example.mjs is missing: add a short example that imports '${pkg.name}' as a user would, runs offline in a fresh project and exits 0, and paste it verbatim into ${pkg.dir}/README.md in a \`\`\`js block`;
  }
  const code = readFileSync(example, 'utf8').trimEnd();
  const readme = existsSync(join(pkg.path, 'README.md')) ? readFileSync(join(pkg.path, 'README.md'), 'utf8') : '';
  if (!readme.includes(`\`\`\`js\n${code}\n\`\`\``)) {
    return `${pkg.dir}/README.md does not show ${pkg.dir}/example.mjs verbatim: copy the file's text into a \`\`\`js block of the README (or fix whichever of the two is stale)`;
  }
  return undefined;
}

/** The peers a user installs beside the package: the required ones, at the versions the workspace tests. */
function requiredPeers(pkg) {
  const peers = {};
  for (const [name, range] of Object.entries(pkg.manifest.peerDependencies ?? {})) {
    if (pkg.manifest.peerDependenciesMeta?.[name]?.optional) continue;
    peers[name] = pkg.manifest.devDependencies?.[name] ?? range;
  }
  return peers;
}

/**
 * The packages example.mjs imports besides `pkg` (a user installs those too, as the README's install
 * line says), at the version the package itself depends on or tests with.
 */
function exampleImports(pkg, local) {
  const code = readFileSync(join(pkg.path, 'example.mjs'), 'utf8');
  const deps = {};
  for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (specifier.startsWith('node:') || specifier.startsWith('.')) continue;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (name === pkg.name) continue;
    const m = pkg.manifest;
    const version = local[name] ?? m.dependencies?.[name] ?? m.devDependencies?.[name] ?? m.peerDependencies?.[name];
    if (!version)
      throw new Error(
        `${pkg.dir}/example.mjs imports ${name}, which ${pkg.name} neither depends on nor tests with: add it to its devDependencies (the version users should install)`,
      );
    deps[name] = version;
  }
  return deps;
}

/**
 * better-sqlite3 where the example opens a SQLite ledger (it is @ewp/sqlite's, or imports it) on a Node
 * without the node:sqlite the store runs on: it is an optional peer, and the README's Node 20 install
 * line adds it (`npm i @ewp/sqlite better-sqlite3`). At the version @ewp/sqlite tests with.
 */
function sqliteDriver(pkg, imports) {
  if (hasNodeSqlite() || (pkg.name !== '@ewp/sqlite' && !('@ewp/sqlite' in imports))) return {};
  const sqlite = publicPackages().find((p) => p.name === '@ewp/sqlite');
  return { 'better-sqlite3': sqlite.manifest.devDependencies['better-sqlite3'] };
}

/** A fresh project with only `pkg` (and its peers) as dependencies; @ewp/* resolve to the local tarballs. */
function makeProject(pkg, manager, tarballs) {
  const dir = join(scratch, `${pkg.name.replace(/[@/]/g, '_')}-${manager}`);
  mkdirSync(dir, { recursive: true });
  const local = Object.fromEntries([...tarballs].map(([name, tarball]) => [name, `file:${tarball}`]));
  const imports = exampleImports(pkg, local);
  const manifest = {
    name: 'user-project',
    version: '1.0.0',
    private: true,
    type: 'module',
    dependencies: { ...requiredPeers(pkg), ...imports, ...sqliteDriver(pkg, imports), [pkg.name]: local[pkg.name] },
  };
  // Not on the registry yet: the package's own @ewp dependencies come from the tarballs packed here.
  if (manager === 'npm') manifest.overrides = local;
  else manifest.pnpm = { overrides: local, onlyBuiltDependencies: ['better-sqlite3', 'esbuild'] };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (existsSync(join(pkg.path, 'example.mjs'))) copyFileSync(join(pkg.path, 'example.mjs'), join(dir, 'example.mjs'));
  return dir;
}

/** Install failures that are the registry's, not the package's: worth another try. */
const REGISTRY_HICCUP = /ETARGET|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ECONNREFUSED|ERR_SOCKET_TIMEOUT|E50[0-4]|ERR_PNPM_FETCH_5\d\d|ERR_PNPM_META_FETCH_FAIL/;

async function installAndRun(pkg, manager, tarballs) {
  const dir = makeProject(pkg, manager, tarballs);
  const env = { ...process.env, NODE_PATH: '', npm_config_yes: 'true', COREPACK_ENABLE_STRICT: '0' };
  delete env.npm_config_prefix;
  const [cmd, args] =
    manager === 'npm'
      ? ['npm', ['install', '--no-audit', '--no-fund', '--loglevel=warn']]
      : pnpmCommand(['install', '--prefer-offline', '--config.strict-peer-dependencies=false']);
  let install = await run(cmd, args, { cwd: dir, env, timeoutMs: 600_000 });
  let output = `${install.stdout}\n${install.stderr}`;
  // The registry mirror answers a version it has not fetched yet with ETARGET, and drops connections at
  // times: retried twice, after a pause. A version that does not exist fails all three tries.
  const retries = [];
  while (install.code !== 0 && retries.length < 2 && REGISTRY_HICCUP.test(output)) {
    retries.push(output.match(REGISTRY_HICCUP)?.[0]);
    await new Promise((resolve) => setTimeout(resolve, retries.length * 20_000));
    install = await run(cmd, args, { cwd: dir, env, timeoutMs: 600_000 });
    output = `${install.stdout}\n${install.stderr}`;
  }
  if (install.code !== 0) throw new Error(`${manager} install exited ${install.code}: ${output.trim().split('\n').slice(-6).join(' | ')}`);
  const peerLines = output.split('\n').filter((l) => PEER_WARNING.test(l));
  if (peerLines.length) {
    throw new Error(
      `${manager} install warned about peer dependencies: ${peerLines.slice(0, 4).join(' | ')}. Fix the package's peerDependencies ranges (or the versions its README tells users to install)`,
    );
  }
  const example = await run(process.execPath, ['example.mjs'], { cwd: dir, env, timeoutMs: 120_000 });
  if (example.code !== 0) {
    throw new Error(
      `example.mjs exited ${example.code} after a ${manager} install: ${`${example.stderr}\n${example.stdout}`.trim().split('\n').slice(-6).join(' | ')}`,
    );
  }
  const retried = retries.length === 0 ? '' : `, after ${retries.length} retried install(s): ${retries.join(', ')}`;
  return `installed in ${(install.ms / 1000).toFixed(0)} s, example ran in ${(example.ms / 1000).toFixed(1)} s${retried}`;
}

async function main() {
  const packages = publicPackages();
  const built = packages.filter((p) => typedEntryPoints(p).every((e) => existsSync(join(p.path, e.import))));
  for (const p of packages.filter((x) => !built.includes(x))) results.fail(`build: ${p.name}`, `dist is missing: run \`pnpm build\` first`);
  mkdirSync(join(scratch, 'tarballs'));
  const packed = await packPackages(built, join(scratch, 'tarballs'));
  const tarballs = new Map(packed.map((p) => [p.pkg.name, p.tarball]));
  const targets = built.filter((p) => !only || only.includes(p.name));
  for (const pkg of targets) {
    const problem = readmeShowsExample(pkg);
    if (problem) results.fail(`readme example: ${pkg.name}`, problem);
    else results.pass(`readme example: ${pkg.name}`);
  }
  // npm compiles native addons (better-sqlite3) in every fresh project, so those installs start first,
  // then the other npm installs (npm has no shared store), then pnpm's.
  const byName = new Map(packages.map((p) => [p.name, p]));
  const installedDeps = (p, dep) => {
    const manifestPath = join(p.path, 'node_modules', dep, 'package.json');
    if (!existsSync(manifestPath)) return [];
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    // npm installs required peers too.
    const peers = Object.keys(m.peerDependencies ?? {}).filter((d) => !m.peerDependenciesMeta?.[d]?.optional);
    return [...Object.keys(m.dependencies ?? {}), ...peers];
  };
  const native = (p, seen = new Set()) => {
    for (const d of Object.keys({ ...p.manifest.dependencies, ...requiredPeers(p) })) {
      if (d === 'better-sqlite3' || (!byName.has(d) && installedDeps(p, d).includes('better-sqlite3'))) return true;
      if (byName.has(d) && !seen.has(d)) {
        seen.add(d);
        if (native(byName.get(d), seen)) return true;
      }
    }
    return false;
  };
  const runs = targets
    .filter((p) => existsSync(join(p.path, 'example.mjs')))
    .flatMap((pkg) => ['npm', 'pnpm'].map((manager) => ({ pkg, manager, order: manager === 'pnpm' ? 2 : native(pkg) ? 0 : 1 })))
    .sort((a, b) => a.order - b.order);
  // pnpm installs link from the machine's store and npm's from its cache; three at a time keeps the
  // two cores busy without starving the native builds (better-sqlite3) npm runs.
  // Beside them, one project per kind of user that takes many packages at once (scripts/user-lanes.mjs).
  const [outcomes, commonJs, zod3, lowest, lowestTests] = await Promise.all([
    mapLimit(runs, 3, async ({ pkg, manager }) => {
      try {
        return { pkg, manager, ok: true, detail: await installAndRun(pkg, manager, tarballs) };
      } catch (error) {
        return { pkg, manager, ok: false, detail: error.message };
      }
    }),
    requireFromCommonJs(targets, tarballs, join(scratch, 'commonjs-user')),
    onZod3(targets, tarballs, join(scratch, 'zod3-user')),
    onLowestPeers(targets, tarballs, join(scratch, 'lowest-peers')),
    testsOnLowestPeers(targets, join(scratch, 'lowest-peers-tests')),
  ]);
  for (const o of outcomes) {
    if (o.ok) results.pass(`${o.manager} install + example: ${o.pkg.name}`, o.detail);
    else results.fail(`${o.manager} install + example: ${o.pkg.name}`, o.detail);
  }
  for (const o of commonJs) {
    if (o.ok) results.pass(`require() from CommonJS TypeScript: ${o.name}`, o.detail);
    else results.fail(`require() from CommonJS TypeScript: ${o.name}`, o.detail);
  }
  for (const o of zod3) {
    if (o.ok) results.pass(`example on zod 3: ${o.name}`, o.detail);
    else results.fail(`example on zod 3: ${o.name}`, o.detail);
  }
  for (const o of lowest) {
    if (o.ok) results.pass(`example on the oldest allowed peers: ${o.name}`, o.detail);
    else results.fail(`example on the oldest allowed peers: ${o.name}`, o.detail);
  }
  for (const o of lowestTests) {
    if (o.ok) results.pass(`tests on the oldest allowed peers: ${o.name}`, o.detail);
    else results.fail(`tests on the oldest allowed peers: ${o.name}`, o.detail);
  }
}

const started = performance.now();
try {
  await main();
} catch (error) {
  results.fail('installed as users install', error.message);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`installs as a user took ${((performance.now() - started) / 1000).toFixed(1)} s`);
results.finish();
