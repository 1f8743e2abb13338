import { fileURLToPath } from 'node:url';
import { runAdapterConformanceWithLossReport } from '@ewp/conformance/adapter-suite';
import { localMem0HostedSubject, offlineMem0OssSubject } from './conformance.js';

// Refresh with `EWP_UPDATE_LOSS_REPORTS=1 npx vitest run src/mem0.conformance.test.ts`, or `ewp conformance --report docs/loss-reports.md`.
await runAdapterConformanceWithLossReport(
  [offlineMem0OssSubject(), localMem0HostedSubject()],
  fileURLToPath(new URL('../../../docs/loss-reports.md', import.meta.url)),
  'the Mem0 adapters',
);
