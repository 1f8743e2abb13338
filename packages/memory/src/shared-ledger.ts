/**
 * One memory layer per store in a process, so every binding over a store (MCP sessions, REST routes,
 * the `ewp_memory_context` tool) shares its index and its salience.
 */
import type { EvidenceStore } from '@ewp/ledger';
import { badInput } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';
import type { SalienceStore } from './salience-store.js';

const ledgers = new WeakMap<EvidenceStore, MemoryLedger>();

/**
 * The memory layer of `store` in this process, made on first use with `clock` as its clock and
 * `options.salience` as its salience store (default: in memory); later callers share the first one's.
 * Whoever opens a ledger by location (`ewp serve --db`) passes the salience store of that location
 * (`openSalienceStore`) before the first tool call, so recall counts survive a restart.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` (`salience`) when the store's layer already keeps salience elsewhere.
 */
export function memoryLedgerFor(store: EvidenceStore, clock: () => Date = () => new Date(), options: { salience?: SalienceStore } = {}): MemoryLedger {
  let memory = ledgers.get(store);
  if (memory === undefined) {
    memory = new MemoryLedger(store, { now: () => clock().toISOString(), ...(options.salience === undefined ? {} : { salience: options.salience }) });
    ledgers.set(store, memory);
  } else if (options.salience !== undefined && options.salience !== memory.salience) {
    throw badInput('salience', 'this store already has a memory layer in this process, with another salience store');
  }
  return memory;
}
