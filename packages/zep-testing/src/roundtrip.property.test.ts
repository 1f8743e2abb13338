import { runRoundTripProperty } from '@ewp/conformance/adapter-suite';
import { zepSubject } from './conformance.js';

// CI-sized; raise with EWP_PROPERTY_RUNS for a longer fuzz.
await runRoundTripProperty([['zep', zepSubject]], '@ewp/zep');
