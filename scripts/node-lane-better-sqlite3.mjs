// better-sqlite3 for the Node lanes (scripts/test-node-lane.mjs). Our SQLite store runs there on the
// built-in node:sqlite; offline Mem0 (mem0ai/oss) loads better-sqlite3 itself, and the workspace's copy
// is built for the machine's Node. This builds the same better-sqlite3 sources once per lane into
// .ci/node<major>/better-sqlite3/ (gitignored, reused), offline: node-gyp (npm's own) against the headers
// the npm `node@<major>` package ships. scripts/node-lane-preload.cjs then makes better-sqlite3 load that
// build inside the lane only.
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './workspace.mjs';

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
 * Path of better-sqlite3's addon built for `node` (a lane's binary, from scripts/node-runtime.mjs),
 * building it when missing (a few minutes once per Node version). Rejects when the build fails.
 * Asynchronous, so two lanes can build theirs at once.
 */
export async function ensureBetterSqlite(node) {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const major = version.slice(1).split('.')[0];
  const laneDir = join(ROOT, '.ci', `node${major}`, 'better-sqlite3');
  const addon = join(laneDir, 'build', 'Release', 'better_sqlite3.node');
  const stamp = join(laneDir, 'build', `built-for-${version}`);
  if (existsSync(addon) && existsSync(stamp)) return addon;
  const source = workspaceBetterSqlite();
  rmSync(laneDir, { recursive: true, force: true });
  mkdirSync(laneDir, { recursive: true });
  for (const part of ['binding.gyp', 'deps', 'src', 'lib', 'package.json']) cpSync(join(source, part), join(laneDir, part), { recursive: true });
  // The node@<major> package's folder holding include/node: node-gyp then needs no header download.
  const headers = join(ROOT, '.ci', `node${major}`, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  await promisify(execFile)(node, [nodeGyp(), 'rebuild', '--release', `--nodedir=${headers}`], {
    cwd: laneDir,
    env: { ...process.env, npm_config_nodedir: headers },
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(stamp, '');
  return addon;
}
