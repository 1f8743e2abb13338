// Package quality, gated: for every public workspace package (discovered at run time), the published
// tarball passes publint and attw (node16 profile, require(esm) allowed), its API report matches the committed one, its
// package.json metadata is complete, and its first release is 0.1.0; a change of published files comes
// with a changeset; `engines` admits no Node older than the dependencies need; @ewp/core's browser
// bundle stays within its size budget.
//
//   node scripts/package-quality.mjs                 check (packages must be built: `pnpm build`)
//   node scripts/package-quality.mjs --update        rewrite the API reports and fill in the metadata
//                                                    that follows from the root package.json
//   node scripts/package-quality.mjs --results F     also write the counted results to F (test-all)
//   node scripts/package-quality.mjs --only @ewp/a,@ewp/b   only these packages
//
// docs/releasing.md says what each check wants and how to fix it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CheckResults, flag, option } from './check-results.mjs';
import { packPackages } from './pack-packages.mjs';
import { admitsZod3 } from './user-lanes.mjs';
import { ROOT, publicPackages, typedEntryPoints, workspacePackages } from './workspace.mjs';

const UPDATE = flag('update');
const results = new CheckResults('package quality');
const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const only = option('only')?.split(',');
const packages = publicPackages().filter((p) => !only || only.includes(p.name));
const scratch = mkdtempSync(join(tmpdir(), 'ewp-quality-'));

/** Size budgets, in gzipped bytes of the minified browser bundle (scripts/size-budgets.json). */
const SIZE_BUDGETS = JSON.parse(readFileSync(join(ROOT, 'scripts/size-budgets.json'), 'utf8'));

// ---- metadata -----------------------------------------------------------------------------------

/** What every package.json must carry, derived from the root package.json (one place). */
function expectedMetadata(pkg) {
  const repoUrl = root.repository.url;
  return {
    license: root.license,
    repository: { type: 'git', url: repoUrl, directory: pkg.dir },
    homepage: `${root.homepage}/tree/main/${pkg.dir}#readme`,
    bugs: root.bugs,
  };
}

function checkMetadata(pkg) {
  const m = pkg.manifest;
  const want = expectedMetadata(pkg);
  const problems = [];
  for (const [key, value] of Object.entries(want)) {
    if (JSON.stringify(m[key]) !== JSON.stringify(value)) problems.push(`\`${key}\` should be ${JSON.stringify(value)}`);
  }
  if (!Array.isArray(m.keywords) || m.keywords.length === 0 || !m.keywords.every((k) => typeof k === 'string' && k)) {
    problems.push('`keywords` is missing: add a few words a user would search npm for (hand-written, e.g. ["ewp", "agent-memory", ...])');
  }
  if (typeof m.description !== 'string' || !m.description) problems.push('`description` is missing');
  if (typeof m.engines?.node !== 'string') problems.push('`engines.node` is missing: state the Node versions the package needs, e.g. ">=20.19"');
  // `require()` (require(esm), Node >= 20.19) matches `default`, never `import`.
  for (const entry of typedEntryPoints(pkg)) {
    if (m.exports[entry.subpath].default !== entry.import) {
      problems.push(`\`exports["${entry.subpath}"]\` needs \`"default": "${entry.import}"\` after \`import\`, so CommonJS \`require()\` loads it`);
    }
  }
  problems.push(...zodRootImports(pkg));
  if (problems.length === 0) return;
  if (UPDATE && problems.every((p) => /^`(license|repository|homepage|bugs)`/.test(p))) {
    writeManifest(pkg, { ...m, ...want });
    return;
  }
  const fixable = problems.some((p) => /^`(license|repository|homepage|bugs)`/.test(p));
  throw new Error(
    `${pkg.dir}/package.json: ${problems.join('; ')}${fixable ? '. `node scripts/package-quality.mjs --update` writes repository/homepage/bugs/license from the root package.json' : ''}`,
  );
}

/**
 * A package whose zod range admits zod 3 must import the v4 API from `zod/v4` (zod 3.25.76+ ships it,
 * zod 4 keeps it): under zod 3, `zod` itself is the v3 API, which the package's schemas are not.
 */
function zodRootImports(pkg) {
  const range = pkg.manifest.peerDependencies?.zod ?? pkg.manifest.dependencies?.zod;
  if (!range || !admitsZod3(range)) return [];
  const src = join(pkg.path, 'src');
  if (!existsSync(src)) return [];
  const offenders = readdirSync(src, { recursive: true })
    .map(String)
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .filter((f) => /from\s+['"]zod['"]/.test(readFileSync(join(src, f), 'utf8')));
  return offenders.map((f) => `${pkg.dir}/src/${f} imports 'zod': import from 'zod/v4' (the package's zod range ${range} admits zod 3)`);
}

/** Write a manifest back, keeping its key order and putting new keys after `license`. */
function writeManifest(pkg, next) {
  const ordered = {};
  const added = Object.keys(next).filter((k) => !(k in pkg.manifest));
  for (const key of Object.keys(pkg.manifest)) {
    ordered[key] = next[key];
    if (key === 'license') for (const k of added) ordered[k] = next[k];
  }
  for (const k of added) ordered[k] = next[k];
  writeFileSync(join(pkg.path, 'package.json'), `${JSON.stringify(ordered, null, 2)}\n`);
}

// ---- engines ------------------------------------------------------------------------------------

/** The lowest Node version a range admits, as [major, minor, patch] (lower bounds: >=, ^, ~, =, bare). */
function lowestVersion(range) {
  let lowest;
  for (const part of range.split('||')) {
    const m = /(?:^|\s|>=|\^|~|=|v)(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(part.trim().replace(/^>(?!=)\s*/, '>='));
    if (!m) continue;
    const v = [m[1], m[2], m[3]].map((n) => (n === undefined || Number.isNaN(Number(n)) ? 0 : Number(n)));
    if (!lowest || compareVersions(v, lowest) < 0) lowest = v;
  }
  return lowest;
}

function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * A package's `engines.node` must not admit a Node older than its dependencies and required peers
 * need (as installed in its node_modules), so users read the truth in one place.
 */
function checkEngines(pkg) {
  const own = lowestVersion(pkg.manifest.engines?.node ?? '');
  if (!own) throw new Error(`${pkg.dir}/package.json: \`engines.node\` is missing or unreadable`);
  const m = pkg.manifest;
  const required = Object.keys(m.peerDependencies ?? {}).filter((d) => !m.peerDependenciesMeta?.[d]?.optional);
  const stricter = [];
  for (const dep of [...Object.keys(m.dependencies ?? {}), ...required]) {
    const manifestPath = join(pkg.path, 'node_modules', dep, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const range = JSON.parse(readFileSync(manifestPath, 'utf8')).engines?.node;
    const needed = range && lowestVersion(range);
    if (needed && compareVersions(needed, own) > 0) stricter.push(`${dep} needs node ${range}`);
  }
  if (stricter.length) {
    throw new Error(
      `${pkg.dir}/package.json: \`engines.node\` is "${m.engines.node}" but ${stricter.join('; ')}: raise \`engines.node\` to what the package really needs`,
    );
  }
  return m.engines.node;
}

// ---- publint and attw -----------------------------------------------------------------------------

async function checkPublint(packed) {
  const { publint } = await import('publint');
  const { formatMessage } = await import('publint/utils');
  const tarball = readFileSync(packed.tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  const blocking = messages.filter((m) => m.type === 'error' || m.type === 'warning');
  if (blocking.length) {
    throw new Error(
      `publint: ${blocking.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false })}`).join('\n')}\n(run \`pnpm --filter ${packed.pkg.name} publint\` to see it locally)`,
    );
  }
  const suggestions = messages.filter((m) => m.type === 'suggestion').length;
  return suggestions ? `${suggestions} suggestion(s)` : '';
}

/**
 * attw's node16 profile with one rule off, as each package's `publint` script runs it: node10 (no
 * `exports` support, so subpaths cannot resolve) is not checked. `CJSResolvesToESM` is not a problem
 * here: the packages are ESM only, and their `default` condition lets `require()` load them on every
 * Node with require(esm) (>= 20.19, >= 22.12), which TypeScript types from CJS under `module: nodenext`
 * or `node20` (scripts/install-as-user.mjs type-checks and runs that from a CommonJS project). Every
 * other problem of a CJS resolution (no types, wrong module kind, internal errors) still fails.
 */
const IGNORED_RESOLUTIONS = new Set(['node10']);
const IGNORED_PROBLEMS = new Set(['CJSResolvesToESM']);

async function checkAttw(packed) {
  const attw = await import('@arethetypeswrong/core');
  const pkg = attw.createPackageFromTarballData(new Uint8Array(readFileSync(packed.tarball)));
  const analysis = await attw.checkPackage(pkg);
  if (!analysis.types) throw new Error('attw: the package ships no types (an `exports` entry needs a `types` condition)');
  const problems = analysis.problems.filter((p) => !IGNORED_PROBLEMS.has(p.kind) && (!('resolutionKind' in p) || !IGNORED_RESOLUTIONS.has(p.resolutionKind)));
  if (problems.length) {
    const lines = problems.map((p) => `${p.kind} at ${p.entrypoint ?? ''}${p.resolutionKind ? ` (${p.resolutionKind})` : ''}`);
    throw new Error(
      `attw --profile node16 --ignore-rules cjs-resolves-to-esm: ${lines.join('; ')}. What each problem means: https://github.com/arethetypeswrong/arethetypeswrong.github.io/tree/main/docs/problems ; run \`pnpm --filter ${packed.pkg.name} publint\` locally`,
    );
  }
}

// ---- API reports ----------------------------------------------------------------------------------

/** The report file of one entry point: `api/<name>.api.md`, `api/<name>-<subpath>.api.md`. */
function reportName(pkg, subpath) {
  const base = pkg.name.replace(/^@[^/]+\//, '');
  return subpath === '.' ? base : `${base}-${subpath.replace(/^\.\//, '').replace(/[/*]/g, '-')}`;
}

async function checkApiReports(pkg) {
  const { Extractor, ExtractorConfig } = await import('@microsoft/api-extractor');
  const entries = typedEntryPoints(pkg);
  if (entries.length === 0) throw new Error(`${pkg.dir}/package.json: no \`exports\` entry with \`types\` and \`import\` conditions`);
  const reportFolder = join(pkg.path, 'api');
  const changed = [];
  for (const entry of entries) {
    const mainEntryPointFilePath = join(pkg.path, entry.types);
    if (!existsSync(mainEntryPointFilePath)) throw new Error(`${entry.types} does not exist: build the package first (pnpm --filter ${pkg.name}... build)`);
    const name = reportName(pkg, entry.subpath);
    if (UPDATE) mkdirSync(reportFolder, { recursive: true });
    else if (!existsSync(join(reportFolder, `${name}.api.md`))) {
      throw new Error(`${pkg.dir}/api/${name}.api.md is missing: run \`node scripts/package-quality.mjs --update\` (after \`pnpm build\`) and commit it`);
    }
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: pkg.path,
        mainEntryPointFilePath,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2022',
              lib: ['ES2023', 'DOM'],
              types: ['node'],
              skipLibCheck: true,
              strict: true,
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
            },
            files: [mainEntryPointFilePath],
          },
        },
        apiReport: { enabled: true, reportFolder, reportTempFolder: join(scratch, 'api', pkg.dir), reportFileName: name },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
          tsdocMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: join(pkg.path, 'package.json'),
    });
    const errors = [];
    const outcome = Extractor.invoke(config, {
      localBuild: UPDATE,
      messageCallback: (message) => {
        if (message.logLevel === 'error') errors.push(message.text);
        message.handled = true;
      },
    });
    if (errors.length) throw new Error(`api-extractor on ${entry.types}: ${errors.join('; ')}`);
    if (outcome.apiReportChanged && !UPDATE) changed.push(`${pkg.dir}/api/${name}.api.md`);
    else if (!outcome.succeeded && !outcome.apiReportChanged) throw new Error(`api-extractor failed on ${entry.types}`);
  }
  if (changed.length) {
    throw new Error(
      `the public API differs from ${changed.join(', ')}. If the change is intended, run \`node scripts/package-quality.mjs --update\` (after \`pnpm build\`) and commit the report with a changeset; the diff of the report is what reviewers read`,
    );
  }
  return `${entries.length} entry point(s)`;
}

// ---- changesets -----------------------------------------------------------------------------------

function git(args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The commit to compare with: the PR's base in CI, else main's merge base; undefined when there is none. */
function changesetBase() {
  const explicit = process.env.EWP_CHANGESET_BASE ?? (process.env.GITHUB_BASE_REF ? `origin/${process.env.GITHUB_BASE_REF}` : undefined);
  try {
    if (explicit) return { base: git(['merge-base', explicit, 'HEAD']), label: explicit };
    const base = git(['merge-base', 'main', 'HEAD']);
    if (base === git(['rev-parse', 'HEAD'])) return { skip: "HEAD is main's tip: no base to compare with (a pull request compares with its base branch)" };
    return { base, label: 'main' };
  } catch {
    return { skip: 'no base branch in this clone (set EWP_CHANGESET_BASE to compare with one)' };
  }
}

/** Package names a changeset file's front matter releases. */
function changesetPackages(text) {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!front) return [];
  return front[1]
    .split('\n')
    .map((line) => /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch|none)\s*$/.exec(line)?.[1])
    .filter(Boolean);
}

/** Whether a path inside a package (relative to it) ends up in or builds what is published. */
function isPublished(relPath, tarballFiles) {
  if (tarballFiles.has(relPath)) return true;
  if (['package.json', 'tsup.config.ts', 'tsconfig.json'].includes(relPath)) return true;
  return relPath.startsWith('src/') && !/(\.test\.|\.bench\.|__tests__\/)/.test(relPath);
}

function checkChangesets(packedAll) {
  const where = changesetBase();
  if (where.skip) {
    results.skip('changeset for changed packages', where.skip);
    return;
  }
  const changed = git(['diff', '--name-only', `${where.base}...HEAD`])
    .split('\n')
    .filter(Boolean);
  const released = new Set();
  for (const file of changed) {
    if (/^\.changeset\/[^/]+\.md$/.test(file) && !file.endsWith('README.md') && existsSync(join(ROOT, file))) {
      for (const name of changesetPackages(readFileSync(join(ROOT, file), 'utf8'))) released.add(name);
    }
  }
  for (const { pkg, files } of packedAll) {
    const inTarball = new Set(files);
    const touched = changed
      .filter((f) => f.startsWith(`${pkg.dir}/`))
      .map((f) => f.slice(pkg.dir.length + 1))
      .filter((f) => isPublished(f, inTarball));
    const name = `changeset: ${pkg.name}`;
    if (touched.length === 0) continue;
    if (released.has(pkg.name)) results.pass(name, `${touched.length} published file(s) changed since ${where.label}`);
    else {
      results.fail(
        name,
        `published files changed since ${where.label} (${touched.slice(0, 5).join(', ')}${touched.length > 5 ? ', ...' : ''}) but no changeset added since then names ${pkg.name}: run \`pnpm changeset\` (or add .changeset/<name>.md with \`"${pkg.name}": patch\`) and commit it`,
      );
    }
  }
}

/** The release plan of the pending changesets (`changeset status`), by package name. */
function releasePlan() {
  const out = join(scratch, 'changeset-status.json');
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/@changesets/cli/bin.js'), 'status', `--output=${out}`], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw new Error(
      `changeset status failed: ${String(error.stderr ?? error.message)
        .trim()
        .split('\n')
        .slice(-3)
        .join(' ')}`,
    );
  }
  return new Map(JSON.parse(readFileSync(out, 'utf8')).releases.map((r) => [r.name, r]));
}

/** A package never released (0.0.0) is first published as 0.1.0 (docs/releasing.md). */
function checkFirstVersion(pkg, plan) {
  if (pkg.version !== '0.0.0') return `at ${pkg.version}`;
  const release = plan.get(pkg.name);
  const next = release?.newVersion ?? '0.0.0';
  if (release && release.type !== 'none' && next !== '0.0.1' && next !== '0.0.0') return `first release ${next}`;
  throw new Error(
    `${pkg.name} is unreleased (0.0.0) and the pending changesets would publish it as ${next}: its first release is 0.1.0, so add a changeset with \`"${pkg.name}": minor\` (e.g. in the one that introduced it)`,
  );
}

// ---- size budget --------------------------------------------------------------------------------

async function bundleSize(pkg) {
  const { build } = await import('esbuild');
  const entry = typedEntryPoints(pkg).find((e) => e.subpath === '.');
  const out = await build({
    stdin: { contents: `export * from ${JSON.stringify(join(pkg.path, entry.import))};`, resolveDir: pkg.path, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = out.outputFiles[0].contents;
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function checkSize(pkg) {
  const budget = SIZE_BUDGETS[pkg.name];
  const size = await bundleSize(pkg);
  const detail = `${size.minified} B minified, ${size.gzip} B gzipped, budget ${budget.gzipBytes} B`;
  if (size.gzip > budget.gzipBytes) {
    throw new Error(
      `${pkg.name}'s browser bundle is ${detail}: make it smaller, or, if the growth is worth it, raise gzipBytes in scripts/size-budgets.json to the new size + 10% and say why in the commit`,
    );
  }
  return detail;
}

// ---- run ----------------------------------------------------------------------------------------

async function main() {
  console.log(`package quality: ${packages.length} public packages (${packages.map((p) => p.name).join(', ')})`);
  for (const name of Object.keys(SIZE_BUDGETS)) {
    if (!packages.some((p) => p.name === name))
      results.fail(`size: ${name}`, `scripts/size-budgets.json names ${name}, which is not a public workspace package`);
  }
  const missingBuild = packages.filter((p) => typedEntryPoints(p).some((e) => !existsSync(join(p.path, e.import)) || !existsSync(join(p.path, e.types))));
  if (missingBuild.length) {
    for (const p of missingBuild) results.fail(`build: ${p.name}`, `dist is missing: run \`pnpm build\` (or pnpm --filter ${p.name}... build) first`);
  }
  const buildable = packages.filter((p) => !missingBuild.includes(p));
  mkdirSync(join(scratch, 'tarballs'));
  let packed = [];
  try {
    packed = await packPackages(buildable, join(scratch, 'tarballs'));
  } catch (error) {
    results.fail('pack', error.message);
  }
  let plan;
  try {
    plan = releasePlan();
  } catch (error) {
    results.fail('changeset status', error.message);
  }
  for (const pkg of packages) await results.check(`metadata: ${pkg.name}`, () => checkMetadata(pkg));
  for (const pkg of packages) await results.check(`engines: ${pkg.name}`, () => checkEngines(pkg));
  for (const p of packed) {
    await results.check(`publint: ${p.pkg.name}`, () => checkPublint(p));
    await results.check(`attw: ${p.pkg.name}`, () => checkAttw(p));
  }
  for (const p of packed) await results.check(`api report: ${p.pkg.name}`, () => checkApiReports(p.pkg));
  if (plan) for (const pkg of packages) await results.check(`first version: ${pkg.name}`, () => checkFirstVersion(pkg, plan));
  checkChangesets(packed);
  for (const pkg of buildable.filter((p) => SIZE_BUDGETS[p.name])) await results.check(`size: ${pkg.name}`, () => checkSize(pkg));
  // Private packages are never packed or checked; say which, so a package made private by mistake shows.
  const privates = workspacePackages().filter((p) => p.private);
  console.log(`  (private, not published: ${privates.map((p) => p.name).join(', ')})`);
}

await main();
rmSync(scratch, { recursive: true, force: true });
results.finish();
