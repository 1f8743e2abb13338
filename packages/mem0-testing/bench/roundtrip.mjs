// Round-trip cost of the Mem0 adapters: every pack fixture written and read back (digest-verified),
// against an in-process baseline that only decodes and clones. Imports the built dist/ (run `pnpm build`).
// Usage: node bench/roundtrip.mjs [--quick]   → bench/results/mem0-roundtrip.json
import { runRoundTripBench } from '@ewp/conformance/adapter-suite';
import { conformanceSubjects } from '../dist/conformance.js';

await runRoundTripBench('mem0', conformanceSubjects(), {
  quick: process.argv.includes('--quick'),
  out: new URL('../../../bench/results/mem0-roundtrip.json', import.meta.url),
});
