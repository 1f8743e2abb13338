// Preloaded (NODE_OPTIONS=--require) into every process of a Node lane by scripts/test-node-lane.mjs:
// when EWP_LANE_BETTER_SQLITE3 names better-sqlite3's addon built for this Node
// (scripts/node-lane-better-sqlite3.mjs, for the version in EWP_LANE_BETTER_SQLITE3_FOR), better-sqlite3
// loads that build instead of the workspace's (built for the machine's Node). better-sqlite3 finds its
// addon through the `bindings` package; only that one name is redirected, every other lookup goes to
// `bindings` itself.
'use strict';
const { join } = require('node:path');

const addon = process.env.EWP_LANE_BETTER_SQLITE3;
// Only under the Node it was built for: a lane test may start the machine's Node (or the other lane's),
// which inherits the env.
if (addon && process.version === process.env.EWP_LANE_BETTER_SQLITE3_FOR) {
  try {
    const { createRequire } = require('node:module');
    const root = join(__dirname, '..');
    const fromSqlite = createRequire(require.resolve('better-sqlite3', { paths: [join(root, 'packages', 'sqlite')] }));
    const bindingsPath = fromSqlite.resolve('bindings');
    const bindings = fromSqlite('bindings');
    const redirected = (options) =>
      (typeof options === 'string' ? options : options?.bindings) === 'better_sqlite3.node' ? require(addon) : bindings(options);
    require.cache[bindingsPath].exports = redirected;
  } catch (error) {
    process.emitWarning(`Node ${process.versions.node.split('.')[0]} lane: better-sqlite3 left as installed (${error.message})`);
  }
}
