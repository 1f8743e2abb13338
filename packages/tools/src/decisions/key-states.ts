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

/** A key's latest state as the ledger's `key.state` entries say, with what it was before. */
export interface KeyStateView {
  key_id: string;
  public_key_hex: string;
  state: Exclude<KeyState, 'UNKNOWN'>;
  /** When the latest state took effect. */
  since: string;
  /** Every state the key had, oldest first. */
  history: { state: Exclude<KeyState, 'UNKNOWN'>; at: string }[];
}

/** Every key the ledger registers, in the order they were added, each in its latest state. */
export async function listKeyStates(store: EvidenceStore): Promise<KeyStateView[]> {
  const keys = new Map<string, KeyStateView>();
  for (const entry of await store.readEntries({ kind: DECISION_ENTRY_KINDS.keyState, limit: 100_000 })) {
    const b = entry.body as { key_id?: unknown; public_key_hex?: unknown; state?: unknown; at?: unknown };
    if (typeof b.key_id !== 'string' || typeof b.public_key_hex !== 'string' || !STATES.has(b.state as string) || typeof b.at !== 'string') continue;
    const state = b.state as KeyStateView['state'];
    const known = keys.get(b.key_id);
    if (known === undefined) keys.set(b.key_id, { key_id: b.key_id, public_key_hex: b.public_key_hex, state, since: b.at, history: [{ state, at: b.at }] });
    else Object.assign(known, { public_key_hex: b.public_key_hex, state, since: b.at, history: [...known.history, { state, at: b.at }] });
  }
  return [...keys.values()];
}

/** The state changes a key may make: a revoked key stays revoked, a retired one is never active again. */
const TRANSITIONS: Record<KeyStateView['state'], readonly KeyStateView['state'][]> = {
  ACTIVE: ['RETIRED', 'REVOKED'],
  RETIRED: ['REVOKED'],
  REVOKED: [],
};

/** Why `change` is refused over the keys the ledger holds, or undefined when it is allowed. */
function refusalOf(known: ReadonlyMap<string, KeyStateView>, change: KeyStateChange): string | undefined {
  const key = known.get(change.key_id);
  if (change.state === 'ACTIVE')
    return key === undefined ? undefined : `key ${JSON.stringify(change.key_id)} is already registered (${key.state}); add a new key id`;
  if (key === undefined) return `no key ${JSON.stringify(change.key_id)} is registered; add it first`;
  if (key.public_key_hex !== change.public_key_hex) return `key ${JSON.stringify(change.key_id)} is registered with another public key`;
  if (!TRANSITIONS[key.state].includes(change.state)) return `key ${JSON.stringify(change.key_id)} is ${key.state} and cannot become ${change.state}`;
  return undefined;
}

/**
 * Applies key state changes in one ledger write, after checking each against the keys the ledger
 * holds (and the changes before it): a new key id becomes ACTIVE (`add`); an ACTIVE key becomes
 * RETIRED (its signatures still verify, it signs nothing new) or REVOKED; a RETIRED key becomes
 * REVOKED. Rotation is a new ACTIVE key and the old one RETIRED, written together.
 * @throws {DecisionError} `EWP_REFUSE_INVALID_ARGUMENTS` naming the change (`$[i]...`) for a malformed
 * or refused change (nothing is written); `EWP_REFUSE_DECISION_NOT_RECORDED` for a ledger failure.
 */
export async function changeKeyStates(store: EvidenceStore, changes: readonly KeyStateChange[]): Promise<KeyStateView[]> {
  const known = new Map((await listKeyStates(store)).map((k) => [k.key_id, k]));
  const at = new Date().toISOString();
  const entries = changes.map((change, i) => {
    if (change === null || typeof change !== 'object')
      throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'a key state change is an object', { path: `$[${i}]` });
    if (typeof change.key_id !== 'string' || change.key_id.trim() === '') {
      throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'key_id must be a non-empty string', { path: `$[${i}].key_id` });
    }
    if (typeof change.public_key_hex !== 'string' || !/^[0-9a-f]{64}$/.test(change.public_key_hex)) {
      throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'public_key_hex must be 64 lowercase hex digits', { path: `$[${i}].public_key_hex` });
    }
    if (!STATES.has(change.state))
      throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', 'state must be ACTIVE, RETIRED or REVOKED', { path: `$[${i}].state` });
    const refused = refusalOf(known, change);
    if (refused !== undefined) throw new DecisionError('EWP_REFUSE_INVALID_ARGUMENTS', refused, { path: `$[${i}].state` });
    const when = change.at ?? at;
    const prior = known.get(change.key_id);
    known.set(change.key_id, {
      key_id: change.key_id,
      public_key_hex: change.public_key_hex,
      state: change.state,
      since: when,
      history: [...(prior?.history ?? []), { state: change.state, at: when }],
    });
    return {
      kind: DECISION_ENTRY_KINDS.keyState,
      id: `${change.key_id}@${when}`,
      body: { key_id: change.key_id, public_key_hex: change.public_key_hex, state: change.state, at: when },
    };
  });
  try {
    await store.appendEntries(entries);
  } catch (error) {
    throw new DecisionError(
      'EWP_REFUSE_DECISION_NOT_RECORDED',
      `the ledger could not record the key state changes (${changes.map((c) => c.key_id).join(', ')})`,
      {
        cause: error,
      },
    );
  }
  return changes.map((c) => known.get(c.key_id) as KeyStateView);
}
