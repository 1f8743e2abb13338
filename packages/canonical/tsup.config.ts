import type { Options } from 'tsup';
import { ewpTsup } from '../../tsup.shared.js';

/**
 * The sources import `./sha256-node.js` (what tests and typechecks run on Node); the build turns that
 * import into `#sha256`, which package.json `imports` resolves when the package loads: node:crypto
 * under the `node` condition, the JavaScript SHA-256 (`sha256-portable`) in browsers and edge runtimes.
 * Both are their own entries, so neither is bundled into index.js.
 */
const sha256BySubpathImport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'ewp-sha256-subpath-import',
  setup(build) {
    build.onResolve({ filter: /^\.\/sha256-node\.js$/ }, () => ({ path: '#sha256', external: true }));
  },
};

export default ewpTsup({
  entry: ['src/index.ts', 'src/sha256-node.ts', 'src/sha256-portable.ts'],
  esbuildPlugins: [sha256BySubpathImport],
  dts: { entry: 'src/index.ts' },
});
