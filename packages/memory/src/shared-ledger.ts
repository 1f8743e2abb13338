/**
 * One memory layer per store in a process, so every binding over a store (MCP sessions, REST routes,
 * the `ewp_memory_context` tool) shares its index and its salience.
 */
import { InvalidArgumentError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { badInput } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';
import type { MemoryConfigInput } from './config.js';
import type { SalienceStore } from './salience-store.js';

const ledgers = new WeakMap<EvidenceStore, MemoryLedger>();

/**
 * The memory layer of `store` in this process, made on first use with `clock` as its clock and
 * `options.salience` as its salience store (default: in memory) and `options.config` as its settings
 * (default: the defaults); later callers share the first one's.
 * Whoever opens a ledger by location (`ewp serve --db`) passes the salience store of that location
 * (`openSalienceStore`) before the first tool call, so recall counts survive a restart.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` (`salience`) when the store's layer already keeps salience elsewhere.
 */
export function memoryLedgerFor(
  store: EvidenceStore,
  clock: () => Date = () => new Date(),
  options: { salience?: SalienceStore; config?: MemoryConfigInput } = {},
): MemoryLedger {
  let memory = ledgers.get(store);
  if (memory === undefined) {
    memory = new MemoryLedger(store, {
      now: () => clock().toISOString(),
      ...(options.salience === undefined ? {} : { salience: options.salience }),
      ...(options.config === undefined ? {} : { config: options.config }),
    });
    ledgers.set(store, memory);
  } else if (options.salience !== undefined && options.salience !== memory.salience) {
    throw badInput('salience', 'this store already has a memory layer in this process, with another salience store');
  }
  return memory;
}

/** What a framework binding is given: a memory layer, or a store whose shared layer ({@link memoryLedgerFor}) it uses. */
export type MemorySource = { ledger: MemoryLedger; store?: undefined } | { store: EvidenceStore; ledger?: undefined };

/**
 * The memory layer a binding's options name: `ledger` as given, or the shared layer of `store`.
 * @throws {InvalidArgumentError} naming `path` (or `path.ledger`) when neither is given.
 */
export function memoryLedgerOf(source: MemorySource | undefined, path = 'options'): MemoryLedger {
  if (typeof source !== 'object' || source === null) throw new InvalidArgumentError(path, 'an object with a ledger or a store is required');
  if (source.ledger !== undefined) return source.ledger;
  if (source.store !== undefined && source.store !== null) return memoryLedgerFor(source.store);
  throw new InvalidArgumentError(`${path}.ledger`, 'a MemoryLedger (or an EvidenceStore as store) is required');
}
