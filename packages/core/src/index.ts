/**
 * @ewp/core — the EWP-0.2.0 kernel (policy `reference-v2`): decode and refuse EvidenceViews,
 * evaluate them with {@link warrantNow}, and gate actions with {@link mayAct}.
 * Zero dependencies; no I/O, no clock.
 * @packageDocumentation
 */
export * from './types.js';
export * from './errors.js';
