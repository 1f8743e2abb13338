// Round-trip cost of the Zep adapter (official client, local v2 graph server): every pack fixture written and read back (digest-verified),
// against an in-process baseline that only decodes and clones. Imports the built dist/ (run `pnpm build`).
// Usage: node bench/roundtrip.mjs [--quick]   → bench/results/zep-roundtrip.json
import { runRoundTripBench } from '@ewp/conformance/adapter-suite';
import { conformanceSubjects } from '../dist/conformance.js';

await runRoundTripBench('zep', conformanceSubjects(), {
  quick: process.argv.includes('--quick'),
  out: new URL('../../../bench/results/zep-roundtrip.json', import.meta.url),
});
