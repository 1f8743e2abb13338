/**
 * Signing key state changes as ledger entries (docs/spec/receipts.md §5.4, §12.8): each change of a key's state is
 * appended to the chain, so the keys a signed decision is checked against come from the same
 * audited ledger, and a revocation is itself on record.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { Ed25519Verifier, type KeyState } from '@ewp/receipts';
import { DecisionError } from './decision-error.js';
import { DECISION_ENTRY_KINDS } from './entry-kinds.js';

/** One key state change. */
export interface KeyStateChange {
  key_id: string;
  /** Lowercase hex of the raw 32-byte Ed25519 public key. */
  public_key_hex: string;
  state: Exclude<KeyState, 'UNKNOWN'>;
  /** When the change takes effect (ISO 8601); default now. */
  at?: string;
}

const STATES = new Set(['ACTIVE', 'RETIRED', 'REVOKED']);

/**
 * Appends a key state change (`key.state`, id `<key_id>@<at>`).
 * @throws {DecisionError} `EWP_REFUSE_INVALID_ARGUMENTS` for a malformed change; `EWP_REFUSE_DECISION_NOT_RECORDED` for a ledger failure.
 */
export async function recordKeyState(store: EvidenceStore, change: KeyStateChange): Promise<void> {
  if (typeof change.key_id !== 'string' || change.key_id.trim() === '') {
    throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'key_id must be a non-empty string', { path: '$.key_id' });
  }
  if (typeof change.public_key_hex !== 'string' || !/^[0-9a-f]{64}$/.test(change.public_key_hex)) {
    throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'public_key_hex must be 64 lowercase hex digits', { path: '$.public_key_hex' });
  }
  if (!STATES.has(change.state)) throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'state must be ACTIVE, RETIRED or REVOKED', { path: '$.state' });
  const at = change.at ?? new Date().toISOString();
  try {
    await store.appendEntries([
      {
        kind: DECISION_ENTRY_KINDS.keyState,
        id: `${change.key_id}@${at}`,
        body: { key_id: change.key_id, public_key_hex: change.public_key_hex, state: change.state, at },
      },
    ]);
  } catch (error) {
    throw new DecisionError('EWP_REFUSE_DECISION_NOT_RECORDED', `the ledger could not record the key state of ${change.key_id}`, { cause: error });
  }
}

/** An Ed25519 verifier over the keys the ledger's `key.state` entries register, each in its latest state. */
export async function ledgerKeyVerifier(store: EvidenceStore): Promise<Ed25519Verifier> {
  const verifier = new Ed25519Verifier();
  for (const entry of await store.readEntries({ kind: DECISION_ENTRY_KINDS.keyState, limit: 100_000 })) {
    const b = entry.body as { key_id?: unknown; public_key_hex?: unknown; state?: unknown };
    if (typeof b.key_id === 'string' && typeof b.public_key_hex === 'string' && STATES.has(b.state as string)) {
      verifier.register(b.key_id, b.public_key_hex, b.state as KeyState);
    }
  }
  return verifier;
}
