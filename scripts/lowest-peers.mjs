// The lowest-versions lane alone (scripts/install-as-user.mjs runs it with the other installs): each
// binding's example.mjs in a project of packed tarballs, and its own tests, on the oldest version of every
// framework peer its ranges allow (scripts/user-lanes.mjs: onLowestPeers, testsOnLowestPeers).
//
//   node scripts/lowest-peers.mjs [--only @ewp/x,@ewp/y] [--results FILE]   packages must be built
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckResults, option } from './check-results.mjs';
import { packPackages } from './pack-packages.mjs';
import { onLowestPeers, testsOnLowestPeers } from './user-lanes.mjs';
import { publicPackages, typedEntryPoints } from './workspace.mjs';

const results = new CheckResults('oldest allowed peers');
const scratch = mkdtempSync(join(tmpdir(), 'ewp-lowest-peers-'));
const only = option('only')?.split(',');

/** Record each outcome under `check: package`. */
function report(check, outcomes) {
  for (const o of outcomes) {
    if (o.ok) results.pass(`${check}: ${o.name}`, o.detail);
    else results.fail(`${check}: ${o.name}`, o.detail);
  }
}

const started = performance.now();
try {
  const packages = publicPackages().filter((p) => !only || only.includes(p.name));
  const built = packages.filter((p) => typedEntryPoints(p).every((e) => existsSync(join(p.path, e.import))));
  for (const p of packages.filter((x) => !built.includes(x))) results.fail(`build: ${p.name}`, 'dist is missing: run `pnpm build` first');
  mkdirSync(join(scratch, 'tarballs'));
  // Every package is packed: a binding's tarball needs the tarballs of its @ewp dependencies.
  const all = publicPackages().filter((p) => typedEntryPoints(p).every((e) => existsSync(join(p.path, e.import))));
  const tarballs = new Map((await packPackages(all, join(scratch, 'tarballs'))).map((p) => [p.pkg.name, p.tarball]));
  const [examples, tests] = await Promise.all([onLowestPeers(built, tarballs, join(scratch, 'examples')), testsOnLowestPeers(built, join(scratch, 'tests'))]);
  report('example on the oldest allowed peers', examples);
  report('tests on the oldest allowed peers', tests);
} catch (error) {
  results.fail('oldest allowed peers', error.message);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`the oldest allowed peers took ${((performance.now() - started) / 1000).toFixed(1)} s`);
results.finish();
