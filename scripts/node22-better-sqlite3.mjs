// better-sqlite3 for the Node 22 lane. Our SQLite store runs there on the built-in node:sqlite; offline
// Mem0 (mem0ai/oss) loads better-sqlite3 itself, and the workspace's copy is built for the machine's
// Node. This builds the same better-sqlite3 sources once for Node 22 into .ci/node22/better-sqlite3/
// (gitignored, reused), offline: node-gyp (npm's own) against the headers the npm `node@22` package
// ships. scripts/node22-preload.cjs then makes better-sqlite3 load that build inside the lane only.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './workspace.mjs';

const LANE_DIR = join(ROOT, '.ci', 'node22', 'better-sqlite3');

/** The workspace's better-sqlite3 package folder (the sources to build). */
function workspaceBetterSqlite() {
  return dirname(createRequire(join(ROOT, 'packages', 'sqlite', 'package.json')).resolve('better-sqlite3/package.json'));
}

/** npm's bundled node-gyp (no download: it ships with npm). */
function nodeGyp() {
  const npmCli = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  return join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
}

/**
 * Path of better-sqlite3's addon built for `node22` (the lane's binary), building it when missing
 * (a few minutes once). Throws when the build fails.
 */
export function ensureBetterSqlite22(node22) {
  const addon = join(LANE_DIR, 'build', 'Release', 'better_sqlite3.node');
  const version = execFileSync(node22, ['--version'], { encoding: 'utf8' }).trim();
  const stamp = join(LANE_DIR, 'build', `built-for-${version}`);
  if (existsSync(addon) && existsSync(stamp)) return addon;
  const source = workspaceBetterSqlite();
  rmSync(LANE_DIR, { recursive: true, force: true });
  mkdirSync(LANE_DIR, { recursive: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'lib', 'package.json']) cpSync(join(source, part), join(LANE_DIR, part), { recursive: true });
  // The node@22 package's folder holding include/node: node-gyp then needs no header download.
  const headers = join(ROOT, '.ci', 'node22', 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  execFileSync(node22, [nodeGyp(), 'rebuild', '--release', `--nodedir=${headers}`], {
    cwd: LANE_DIR,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, npm_config_nodedir: headers },
  });
  execFileSync('touch', [stamp]);
  return addon;
}
