// Offline Mastra walkthrough (Mastra needs Node >= 22.13). On an older Node this script runs itself
// again under the Node 22 of the repository's test lane (.ci/node22, installed by
// `node scripts/test-node22.mjs`) when it is there, and otherwise says it is skipped.
// Run: pnpm --filter @ewp/example-mastra start
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  const lane = fileURLToPath(new URL('../../.ci/node22/node_modules/.bin/node', import.meta.url));
  if (!existsSync(lane)) {
    console.log(
      `decided: nothing, not run: @ewp/mastra needs Node >= 22.13 (this is ${process.version}); run \`node scripts/test-node22.mjs\` once to install the lane's Node 22`,
    );
    process.exit(0);
  }
  const again = spawnSync(lane, [fileURLToPath(new URL('./walkthrough.mjs', import.meta.url))], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}
await import('./walkthrough.mjs');
