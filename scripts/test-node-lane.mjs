// The Node lanes: run the vitest projects of scripts/node-lanes.mjs for one Node major under the npm
// registry's `node@<major>` package, installed with npm into .ci/node<major>/ (gitignored, reused), never
// downloaded from anywhere else. The rest of the suite stays on the machine's Node. Our SQLite store runs
// there on the built-in node:sqlite; for offline Mem0 (mem0ai loads better-sqlite3 itself) each lane
// builds better-sqlite3 for its Node once (scripts/node-lane-better-sqlite3.mjs) and preloads a redirect
// to it (scripts/node-lane-preload.cjs) into the lane's processes only.
//
// Two lanes, one runner: Node 22 runs every project that needs Node >= 22; Node 24 runs a leaner list
// (scripts/node-lanes.mjs says what and why): the projects that need Node >= 22 without the Mastra ×
// every store product, the SQLite store on node:sqlite and offline Mem0. `runNodeLanes` (the root
// `npm test`) runs the two at once: vitest gives each one worker on a 2-core machine, and the Node 22
// lane is mostly one long test file, so the Node 24 lane fits beside it instead of adding its minutes
// to CI's.
//
//   node scripts/test-node-lane.mjs <22|24> [vitest arguments]   ends with `N passed, N failed`
//   node scripts/test-node22.mjs [vitest arguments]              the same for Node 22
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBetterSqlite } from './node-lane-better-sqlite3.mjs';
import { installNode, NODE_LANES } from './node-runtime.mjs';
import { vitestCounts } from './vitest-counts.mjs';
import { ROOT as root } from './workspace.mjs';

/** The lanes' Node majors, in the order `runNodeLanes` reports them. */
export const LANE_MAJORS = Object.keys(NODE_LANES).map(Number);

/** The Node binary of lane `major` (its pinned version, installed into .ci/node<major>/ when missing). */
export function ensureNode(major) {
  const version = NODE_LANES[major];
  if (version === undefined) throw new RangeError(`no Node lane for Node ${major}: the lanes are ${LANE_MAJORS.join(', ')} (scripts/node-runtime.mjs)`);
  return installNode(version);
}

const resultsFile = (major) => join(root, '.ci', `node${major}`, 'vitest-results.json');

/**
 * Run lane `major` (22 or 24) with `args` narrowing it (a project, a file); resolves
 * `{ passed, failed, failures }`. `log`: a file for the lane's output instead of this process's
 * stdout and stderr.
 */
export async function runNodeLane(major, args = [], { log } = {}) {
  const name = `Node ${major} lane`;
  if (log !== undefined) mkdirSync(dirname(log), { recursive: true });
  const out = log === undefined ? 'inherit' : openSync(log, 'w');
  const say = (line) => (out === 'inherit' ? console.error(line) : writeSync(out, `${line}\n`));
  let node;
  try {
    node = ensureNode(major);
  } catch (error) {
    say(`${name}: ${error.message}`);
    if (out !== 'inherit') closeSync(out);
    return { passed: 0, failed: 1, failures: [`${name}: could not install node@${NODE_LANES[major] ?? major} (${error.message.split('\n')[0]})`] };
  }
  const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
  try {
    env.EWP_LANE_BETTER_SQLITE3 = await ensureBetterSqlite(node);
    env.EWP_LANE_BETTER_SQLITE3_FOR = `v${NODE_LANES[major]}`;
    env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${join(root, 'scripts', 'node-lane-preload.cjs')}`.trim();
  } catch (error) {
    // The offline Mem0 tests then fail or say why they are skipped; everything else runs.
    const why = String(error.stderr || error.message)
      .trim()
      .split('\n')
      .slice(-3)
      .join(' | ');
    say(`${name}: could not build better-sqlite3 for Node ${major} (${why})`);
  }
  const results = resultsFile(major);
  rmSync(results, { force: true });
  const vitest = [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    'vitest.node-lane.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...args,
  ];
  const status = await new Promise((resolveStatus) => {
    const child = spawn(node, vitest, { cwd: root, stdio: ['ignore', out, out], env });
    child.on('error', (error) => {
      say(`${name}: ${error.message}`);
      resolveStatus(-1);
    });
    child.on('close', (code, signal) => resolveStatus(code ?? (signal ? 128 : -1)));
  });
  if (out !== 'inherit') closeSync(out);
  const counts = vitestCounts(results, status);
  return { ...counts, failures: counts.failures.map((f) => `${name}: ${f}`) };
}

/**
 * Every lane at once, as `npm test` runs them: the first (Node 22) prints as it runs, each other one
 * writes to .ci/node<major>/vitest.log, printed when the first is done. Resolves
 * `{ [major]: { passed, failed, failures } }`.
 */
export async function runNodeLanes() {
  const [first, ...others] = LANE_MAJORS;
  const logs = others.map((major) => join(root, '.ci', `node${major}`, 'vitest.log'));
  const running = others.map((major, i) => runNodeLane(major, [], { log: logs[i] }));
  const counts = { [first]: await runNodeLane(first) };
  for (const [i, major] of others.entries()) {
    counts[major] = await running[i];
    console.log(`\n---- Node ${major} lane (ran beside the Node ${first} lane; its output, ${logs[i]}) ----`);
    try {
      process.stdout.write(readFileSync(logs[i], 'utf8'));
    } catch (error) {
      console.log(`(no output: ${error.message})`);
    }
  }
  return counts;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const major = Number(process.argv[2]);
  if (!LANE_MAJORS.includes(major)) {
    console.error(`usage: node scripts/test-node-lane.mjs <${LANE_MAJORS.join('|')}> [vitest arguments]`);
    process.exit(2);
  }
  const { passed, failed } = await runNodeLane(major, process.argv.slice(3));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
