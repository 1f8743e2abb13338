// Runtime lanes: @ewp/core and @ewp/canonical, as built, run on the conformance pack in every runtime
// they claim: Node 20 (this machine), Node 22 and 24 (the npm `node` package), a real browser (Debian's
// chromium driven by playwright-core) and an edge runtime emulation (the npm `edge-runtime` package).
// @ewp/core must pass the pack (conformance's checkEvaluator, the same rule as the unit tests);
// @ewp/canonical must reproduce its EBCJ-1 vectors, and give in every lane exactly what it gives on Node 20.
//
//   node scripts/runtime-lanes.mjs [--results FILE]     packages must be built first
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CheckResults } from './check-results.mjs';
import { installNode, NODE_LANES } from './node-runtime.mjs';
import { run } from './run-process.mjs';
import { ROOT } from './workspace.mjs';

const results = new CheckResults('runtime lanes');
const scratch = mkdtempSync(join(tmpdir(), 'ewp-lanes-'));
const PACKAGES = ['core', 'canonical'];

/**
 * Lanes a package is known not to run in yet, with why. Such a lane is reported as skipped while it
 * fails, and fails the run as soon as it passes, so the entry is removed when the gap is closed.
 */
const KNOWN_GAPS = {};

/**
 * Lane inputs: for @ewp/core the conformance pack (every fixture and invalid view, from
 * @ewp/conformance's loaders); for @ewp/canonical its EBCJ-1 vectors (packages/canonical/vectors).
 */
async function loadCases() {
  const conformance = await import(join(ROOT, 'conformance/dist/index.js'));
  const fixtures = conformance.loadFixtures().map((f) => ({ name: f.name, text: f.text, evaluatedAt: f.evaluatedAt }));
  const invalid = conformance.loadInvalidViews().map((v) => ({ name: `invalid/${v.name}`, text: v.text, evaluatedAt: v.evaluatedAt }));
  const extended = JSON.parse(readFileSync(join(ROOT, 'packages/canonical/vectors/ebcj1-extended.json'), 'utf8')).vectors;
  const vectors = extended.map((v) => ({
    name: `${v.group}/${v.id}`,
    text: v.input_json,
    domains: Object.keys(v.digests),
    expected: { ebcj1: v.canonical_utf8, digests: v.digests },
  }));
  return { conformance, core: [...fixtures, ...invalid], canonical: vectors };
}

/** One bundle per package for the browser and the edge runtime: an IIFE defining globalThis.__ewpLane. */
async function laneBundle(which) {
  const { build } = await import('esbuild');
  const run = which === 'core' ? 'runCore' : 'runCanonical';
  const out = await build({
    stdin: {
      contents: `import * as pkg from '@ewp/${which}'; import { ${run} } from './pack-lane.mjs'; globalThis.__ewpLane = (cases) => ${run}(pkg, cases);`,
      resolveDir: join(ROOT, 'scripts/runtime-lanes'),
      loader: 'js',
    },
    alias: { '@ewp/core': join(ROOT, 'packages/core'), '@ewp/canonical': join(ROOT, 'packages/canonical') },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

function findChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium']) if (candidate && existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

async function nodeLane(bin, which, casesFile) {
  const r = await run(bin, [join(ROOT, 'scripts/runtime-lanes/node-lane.mjs'), which, casesFile], { timeoutMs: 120_000 });
  if (r.code !== 0) throw new Error(`${bin} exited ${r.code}: ${r.stderr.trim().split('\n').slice(-4).join(' | ')}`);
  return JSON.parse(r.stdout);
}

async function browserLane(browser, bundle, cases) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.setContent('<!doctype html><title>ewp lane</title>');
    await page.addScriptTag({ content: bundle });
    if (errors.length) throw new Error(`the bundle threw while loading: ${errors.join('; ')}`);
    const out = await page.evaluate((input) => JSON.stringify(globalThis.__ewpLane(input)), cases);
    return { runtime: await browser.version(), results: JSON.parse(out) };
  } finally {
    await page.close();
  }
}

async function edgeLane(bundle, cases) {
  const { EdgeRuntime } = await import('edge-runtime');
  const runtime = new EdgeRuntime({ initialCode: bundle });
  const out = runtime.evaluate(`JSON.stringify(globalThis.__ewpLane(${JSON.stringify(cases)}))`);
  return { runtime: 'edge-runtime', results: JSON.parse(out) };
}

/** @ewp/core's lane results through conformance's checkEvaluator; throws naming the failed cases. */
function checkCoreResults(conformance, cases, laneResults) {
  const byInput = new Map(cases.map((c, i) => [`${c.evaluatedAt}\u0000${c.text}`, laneResults[i]]));
  const report = conformance.checkEvaluator({
    name: 'lane',
    evaluate(text, evaluatedAt) {
      const r = byInput.get(`${evaluatedAt}\u0000${text}`);
      if (!r) throw Object.assign(new Error('case not run in the lane'), { code: undefined });
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code ?? undefined });
      return r.warrant;
    },
  });
  const failures = [...report.axes.failures, ...report.goldens.failures, ...report.invalid.failures];
  if (failures.length)
    throw new Error(
      `${failures.length} pack case(s) differ: ${failures
        .slice(0, 5)
        .map((f) => `${f.name}: ${f.detail}`)
        .join('; ')}`,
    );
  return `${report.axes.passed} fixtures, ${report.goldens.passed} goldens, ${report.invalid.passed} refusals`;
}

/** @ewp/canonical's lane results: each vector's expected text and digests, a verified chain, and Node 20's results exactly. */
function checkCanonicalResults(reference, laneResults, vectors) {
  const wrong = vectors
    .filter((v, i) => {
      const r = laneResults[i];
      return r?.ebcj1 !== v.expected.ebcj1 || !isDeepStrictEqual(r.digests, v.expected.digests) || r.chain?.verified !== true;
    })
    .map((v) => v.name);
  if (wrong.length) throw new Error(`${wrong.length} EBCJ-1 vector(s) wrong: ${wrong.slice(0, 5).join(', ')}`);
  const differ = vectors.filter((_, i) => !isDeepStrictEqual(reference[i], laneResults[i])).map((v) => v.name);
  if (differ.length) throw new Error(`differs from Node 20 on ${differ.length} vector(s): ${differ.slice(0, 5).join(', ')}`);
  return `${vectors.length} EBCJ-1 vectors`;
}

/** Record one lane of one package, honouring KNOWN_GAPS. */
async function lane(which, laneName, produce, verify) {
  const name = `${laneName}: @ewp/${which}`;
  const gap = KNOWN_GAPS[`${which}/${laneName.split(' ')[0]}`];
  let outcome;
  try {
    const produced = await produce();
    outcome = { ok: true, detail: `${produced.runtime ?? produced.node}; ${verify(produced.results)}` };
  } catch (error) {
    outcome = { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
  if (gap && !outcome.ok) results.skip(name, `known gap: ${gap} (${outcome.detail.split('\n')[0].slice(0, 160)})`);
  else if (gap) results.fail(name, `passes now: remove '${which}/${laneName.split(' ')[0]}' from KNOWN_GAPS in scripts/runtime-lanes.mjs`);
  else if (outcome.ok) results.pass(name, outcome.detail);
  else results.fail(name, outcome.detail);
}

async function main() {
  for (const which of [...PACKAGES, '../conformance']) {
    if (!existsSync(join(ROOT, 'packages', which, 'dist/index.js'))) {
      results.fail(`build: ${which}`, `packages/${which}/dist is missing: run \`pnpm build\` first`);
      return;
    }
  }
  const { conformance, ...inputs } = await loadCases();
  const casesFiles = {};
  for (const which of PACKAGES) {
    casesFiles[which] = join(scratch, `${which}-cases.json`);
    writeFileSync(casesFiles[which], JSON.stringify(inputs[which]));
  }
  const verify = {
    core: (laneResults) => checkCoreResults(conformance, inputs.core, laneResults),
    canonical: undefined, // set from the Node 20 lane below
  };

  // Node 20 first: its canonical results are what every other lane must reproduce.
  const reference = await nodeLane(process.execPath, 'canonical', casesFiles.canonical).catch((error) => error);
  verify.canonical = (laneResults) => {
    if (reference instanceof Error) throw new Error(`no Node 20 reference: ${reference.message}`);
    return checkCanonicalResults(reference.results, laneResults, inputs.canonical);
  };
  const nodeBins = [['node 20', process.execPath]];
  for (const [major, version] of Object.entries(NODE_LANES)) {
    try {
      nodeBins.push([`node ${major}`, installNode(version)]);
    } catch (error) {
      results.fail(`node ${major}: install`, `npm install node@${version} failed: ${error.message}`);
    }
  }
  for (const [laneName, bin] of nodeBins) {
    for (const which of PACKAGES) await lane(which, laneName, () => nodeLane(bin, which, casesFiles[which]), verify[which]);
  }

  const bundles = {};
  for (const which of PACKAGES) bundles[which] = await laneBundle(which).catch((error) => error);
  const fromBundle = (which, produce) => () => {
    if (bundles[which] instanceof Error)
      throw new Error(`esbuild cannot bundle it for the browser platform: ${bundles[which].message.split('\n').slice(0, 3).join(' ')}`);
    return produce(bundles[which]);
  };

  const chromiumPath = findChromium();
  if (!chromiumPath) {
    for (const which of PACKAGES)
      results.fail(`browser: @ewp/${which}`, 'no chromium (/usr/bin/chromium, PATH or $CHROMIUM_PATH): `apt-get install -y chromium` (.ci/run does)');
  } else {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      for (const which of PACKAGES)
        await lane(
          which,
          'browser',
          fromBundle(which, (b) => browserLane(browser, b, inputs[which])),
          verify[which],
        );
    } finally {
      await browser.close();
    }
  }
  for (const which of PACKAGES)
    await lane(
      which,
      'edge',
      fromBundle(which, (b) => edgeLane(b, inputs[which])),
      verify[which],
    );
}

const started = performance.now();
try {
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`runtime lanes took ${((performance.now() - started) / 1000).toFixed(1)} s`);
results.finish();
