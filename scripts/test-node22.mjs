// The Node 22 lane: run the vitest projects that need Node 22 (scripts/node22-lane.mjs) under the npm
// registry's `node@22` package, installed with npm into .ci/node22/ (gitignored, reused), never
// downloaded from anywhere else. The rest of the suite stays on the machine's Node.
//
//   node scripts/test-node22.mjs [vitest arguments]   ends with `N passed, N failed`
//
// scripts/test-all.mjs (the root `npm test`) runs this lane after the main run and adds its counts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vitestCounts } from './vitest-counts.mjs';

/** The Node 22 release the lane runs (the npm `node` package of this version). */
export const NODE22_VERSION = '22.23.3';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.ci', 'node22');
const binary = join(cache, 'node_modules', '.bin', 'node');

function installedVersion() {
  if (!existsSync(binary)) return undefined;
  const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The path of the Node 22 binary, installed first when missing (about 185 MB; npm caches the tarball). */
export function ensureNode22() {
  if (installedVersion() === `v${NODE22_VERSION}`) return binary;
  mkdirSync(cache, { recursive: true });
  rmSync(join(cache, 'node_modules'), { recursive: true, force: true });
  writeFileSync(
    join(cache, 'package.json'),
    `${JSON.stringify({ private: true, description: 'Node 22 for scripts/test-node22.mjs (not committed)', dependencies: { node: NODE22_VERSION } }, null, 2)}\n`,
  );
  // The `node` package fetches its platform binary package from the registry in a preinstall
  // script; npm 11 runs dependency install scripts only when allowed.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = spawnSync(npm, ['install', '--prefix', cache, '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_dangerously_allow_all_scripts: 'true' },
  });
  const version = installedVersion();
  if (install.status !== 0 || version !== `v${NODE22_VERSION}`) {
    throw new Error(`could not install node@${NODE22_VERSION} into ${cache} with npm (got ${version ?? 'no binary'})`);
  }
  return binary;
}

/** Run the lane; returns `{ passed, failed }`. */
export function runNode22Lane(args = []) {
  let node;
  try {
    node = ensureNode22();
  } catch (error) {
    console.error(`Node 22 lane: ${error.message}`);
    return { passed: 0, failed: 1 };
  }
  const results = join(root, '.vitest-node22-results.json');
  rmSync(results, { force: true });
  const run = spawnSync(
    node,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'vitest.node22.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${results}`,
      ...args,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  return vitestCounts(results, run.status);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, failed } = runNode22Lane(process.argv.slice(2));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
