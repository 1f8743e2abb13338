import { runRoundTripProperty } from '@ewp/conformance/adapter-suite';
import { mem0HostedSubject, mem0OssSubject } from './conformance.js';

// CI-sized; raise with EWP_PROPERTY_RUNS for a longer fuzz.
await runRoundTripProperty(
  [
    ['mem0-oss', mem0OssSubject],
    ['mem0-hosted', mem0HostedSubject],
  ],
  '@ewp/mem0',
);
