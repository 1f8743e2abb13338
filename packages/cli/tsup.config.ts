import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts', 'eval-worker': 'src/commands/eval-worker.ts' },
  dts: { entry: 'src/index.ts' },
  splitting: true,
});
