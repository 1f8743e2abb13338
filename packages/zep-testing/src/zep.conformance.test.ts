import { fileURLToPath } from 'node:url';
import { runAdapterConformanceWithLossReport } from '@ewp/conformance/adapter-suite';
import { localZepSubject } from './conformance.js';

// Refresh with `EWP_UPDATE_LOSS_REPORTS=1 npx vitest run src/zep.conformance.test.ts`, or `ewp conformance --report docs/loss-reports.md`.
await runAdapterConformanceWithLossReport([localZepSubject()], fileURLToPath(new URL('../../../docs/loss-reports.md', import.meta.url)), 'the Zep adapter');
