/** The method and origin tables of policy `reference-v2` (docs/spec/protocol.md §6.2; pack/policy.json). */
export const HUMAN_METHODS: ReadonlySet<string> = new Set(['human_attestation', 'human_review']);
export const EXTERNAL_METHODS: ReadonlySet<string> = new Set([
  'tool_observation',
  'external_clock',
  'document_quote',
  'independent_reproduction',
  'vendor_documentation',
  'winrm',
  'external_api',
]);
export const INDIRECT_METHODS: ReadonlySet<string> = new Set(['inference', 'extract', 'derived', 'model_introspection']);
/** Origins whose checks may confer EXTERNAL or HUMAN. */
export const TRUSTED_ORIGINS: ReadonlySet<string> = new Set(['tool', 'document', 'human', 'api', 'vendor', 'sensor']);
/** Origins produced by the agent or its memory pipeline itself. */
export const ENDOGENOUS_ORIGINS: ReadonlySet<string> = new Set(['extract', 'turn', 'derived', 'summary', 'model_introspection']);

/** True for the six origins that policy `reference-v2` trusts (exact, case-sensitive). */
export function isTrustedOrigin(origin: string): boolean {
  return TRUSTED_ORIGINS.has(origin);
}
