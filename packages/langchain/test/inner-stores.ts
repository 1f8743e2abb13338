/**
 * The inner BaseStores the tests run the wrappers on: LangGraph's InMemoryStore and the official
 * PostgresStore on the local PostgreSQL server (`PGUSER`, 127.0.0.1:5432/test).
 */
import { type InnerStoreKind, inMemoryStoreKind, postgresStoreKind } from '../src/conformance.js';

export type { InnerStoreKind };
export const PG_URL = `postgresql://${process.env.PGUSER ?? 'postgres'}@127.0.0.1:5432/test`;
export const inMemory = inMemoryStoreKind;
export const postgres = postgresStoreKind(PG_URL);
export const innerStores: InnerStoreKind[] = [inMemory, postgres];
