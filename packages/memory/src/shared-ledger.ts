/**
 * One memory layer per store in a process, so every binding over a store (MCP sessions, REST routes,
 * the `ewp_memory_context` tool) shares its index and its salience.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from './memory-ledger.js';

const ledgers = new WeakMap<EvidenceStore, MemoryLedger>();

/**
 * The memory layer of `store` in this process, made on first use with salience in memory and `clock`
 * as its clock (later callers share the first one's).
 */
export function memoryLedgerFor(store: EvidenceStore, clock: () => Date = () => new Date()): MemoryLedger {
  let memory = ledgers.get(store);
  if (memory === undefined) {
    memory = new MemoryLedger(store, { now: () => clock().toISOString() });
    ledgers.set(store, memory);
  }
  return memory;
}
