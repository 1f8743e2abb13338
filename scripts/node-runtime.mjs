// Node.js binaries other than the machine's, from the npm registry's `node` package (the only source
// these machines reach). Each version is installed once into .ci/node<major>/ (not committed) and reused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './workspace.mjs';

/** The exact versions of the lanes (newest on the registry of each line when chosen). */
export const NODE_LANES = { 22: '22.23.3', 24: '24.9.0' };

/**
 * Path of the `node` binary of `version` (e.g. '22.23.3'), installing `node@version` with npm into
 * .ci/node<major>/ when it is not there yet (about 185 MB, a minute once).
 */
export function installNode(version) {
  const major = version.split('.')[0];
  const dir = join(ROOT, '.ci', `node${major}`);
  const bin = join(dir, 'node_modules', '.bin', 'node');
  const manifestPath = join(dir, 'package.json');
  const installed = existsSync(bin) && existsSync(manifestPath) && JSON.parse(readFileSync(manifestPath, 'utf8')).dependencies?.node === version;
  if (installed && execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim() === `v${version}`) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    manifestPath,
    `${JSON.stringify({ private: true, description: `Node ${major} for the runtime lanes (scripts/node-runtime.mjs); not committed`, dependencies: { node: version } })}\n`,
  );
  // The `node` package fetches its platform binary in a preinstall script; npm 11 runs dependency
  // install scripts only when allowed (older npm ignores the setting and runs them).
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_dangerously_allow_all_scripts: 'true' },
  });
  return bin;
}
