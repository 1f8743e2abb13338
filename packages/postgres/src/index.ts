/**
 * @ewp/postgres — the EvidenceStore on PostgreSQL: one ledger shared by many agents and machines.
 * @packageDocumentation
 */
export {
  defaultConnectionString,
  dropPostgresLedger,
  openPostgresStore,
  PostgresEvidenceStore,
  type PostgresStoreOptions,
} from './postgres-store.js';
export type { ListenerState } from './postgres-listener.js';
