import { runAdapterConformance } from '@ewp/conformance/adapter-suite';
import { zepSubject } from './conformance.js';

await runAdapterConformance(zepSubject());
