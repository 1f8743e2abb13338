import { runRoundTripProperty } from '@ewp/conformance/adapter-suite';
import { localMem0HostedSubject, offlineMem0OssSubject } from './conformance.js';

// CI-sized; raise with EWP_PROPERTY_RUNS for a longer fuzz.
await runRoundTripProperty(
  [
    ['mem0-oss', offlineMem0OssSubject],
    ['mem0-hosted', localMem0HostedSubject],
  ],
  '@ewp/mem0',
);
