import { runRoundTripProperty } from '@ewp/conformance/adapter-suite';
import { localZepSubject } from './conformance.js';

// CI-sized; raise with EWP_PROPERTY_RUNS for a longer fuzz.
await runRoundTripProperty([['zep', localZepSubject]], '@ewp/zep');
