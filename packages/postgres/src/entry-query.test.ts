import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryQuerySql } from './postgres-backend.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore } from './postgres-store.js';

const schema = `ewp_plan_${randomBytes(4).toString('hex')}`;
const KINDS = ['decision', 'decision.call', 'decision.outcome'];
let client: pg.Client;

beforeAll(async () => {
  const store = await openPostgresStore({ schema, maxConnections: 2 });
  // 30,000 entries of three kinds, in batches as a gate appends them; statistics as autovacuum keeps them.
  for (let b = 0; b < 30; b += 1) {
    await store.appendEntries(Array.from({ length: 1000 }, (_, i) => ({ kind: KINDS[(b * 1000 + i) % 3] as string, id: `e-${b * 1000 + i}`, body: { i } })));
  }
  await store.close();
  client = new pg.Client({ connectionString: defaultConnectionString() });
  await client.connect();
  await client.query(`ANALYZE "${schema}".entries`);
}, 120_000);

afterAll(async () => {
  await client?.end();
  await dropPostgresLedger(schema);
});

/** PostgreSQL's plan for `q` (text format). */
async function planOf(q: Parameters<typeof entryQuerySql>[0]): Promise<string> {
  const { sql, params } = entryQuerySql(q, (name) => `"${schema}".${name}`);
  const r = await client.query(`EXPLAIN ${sql}`, params);
  return r.rows.map((row: Record<string, string>) => Object.values(row)[0]).join('\n');
}

describe('entry queries on PostgreSQL', () => {
  it('an incremental read of some kinds walks the chain index from where it left off, never the kinds’ whole history', async () => {
    const max = Number((await client.query(`SELECT max(chain_index) AS m FROM "${schema}".entries`)).rows[0].m);
    for (const q of [
      { kinds: ['decision', 'decision.outcome'], afterIndex: max - 10, limit: 500 },
      { kinds: [], prefixes: ['decision.'], afterIndex: max - 10, limit: 500 },
    ]) {
      const plan = await planOf(q);
      expect(plan, plan).toMatch(/Index (Only )?Scan using entries_by_index/);
      expect(plan, plan).not.toMatch(/Seq Scan|Sort/);
    }
  });

  it('the newest entries of a kind come from the chain index read backwards, never a sort of the kind’s history', async () => {
    const max = Number((await client.query(`SELECT max(chain_index) AS m FROM "${schema}".entries`)).rows[0].m);
    for (const q of [
      { kinds: ['decision'], newestFirst: true, limit: 16 },
      { kinds: ['decision'], newestFirst: true, beforeIndex: max - 100, limit: 16 },
    ]) {
      const plan = await planOf(q);
      expect(plan, plan).toMatch(/Index Scan Backward using entries_by_index/);
      expect(plan, plan).not.toMatch(/Seq Scan|Sort/);
    }
  });

  it('a lookup of one entry by kind and id stays on the primary key', async () => {
    const plan = await planOf({ kinds: ['decision'], id: 'e-3', limit: 1 });
    expect(plan, plan).toMatch(/Index (Only )?Scan using entries_pkey|Bitmap Index Scan on entries_pkey|Index Scan using entries_by_id/);
    expect(plan, plan).not.toMatch(/Seq Scan/);
  });
});
