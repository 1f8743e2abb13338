// The Node 22 lane (scripts/test-node-lane.mjs, lane 22), under the name the docs, package scripts and
// other scripts use:
//
//   node scripts/test-node22.mjs [vitest arguments]   ends with `N passed, N failed`
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode, runNodeLane } from './test-node-lane.mjs';

/** The Node 22 binary (the lanes' pinned 22.x, installed into .ci/node22/ when missing). */
export function ensureNode22() {
  return ensureNode(22);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { passed, failed } = await runNodeLane(22, process.argv.slice(2));
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
