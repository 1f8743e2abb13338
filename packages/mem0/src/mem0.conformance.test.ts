import { runAdapterConformance } from '@ewp/conformance/adapter-suite';
import { mem0HostedSubject, mem0OssSubject } from './conformance.js';

await runAdapterConformance(mem0OssSubject());
await runAdapterConformance(mem0HostedSubject());
