import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({
  entry: { index: 'src/index.ts', conformance: 'src/conformance.ts' },
  external: ['@getzep/zep-cloud', '@ewp/conformance'],
});
