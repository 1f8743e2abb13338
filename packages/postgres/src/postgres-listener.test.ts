/**
 * The ledger revision across connections on the real server: a listening store learns of another
 * connection's commit from its NOTIFY with no query of its own, and a store whose listener connection is
 * killed reads the chain head instead, until a new listener is confirmed.
 */
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { seedView } from '../../ledger/test-support/fault-views.js';
import { notifyChannel } from './postgres-listener.js';
import { defaultConnectionString, dropPostgresLedger, openPostgresStore, type PostgresEvidenceStore, type PostgresStoreOptions } from './postgres-store.js';

const run = randomBytes(4).toString('hex');
const schemas: string[] = [];
const stores: PostgresEvidenceStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  for (const s of schemas) await dropPostgresLedger(s);
});

let n = 0;
async function open(schema: string, options: PostgresStoreOptions = {}): Promise<PostgresEvidenceStore> {
  if (!schemas.includes(schema)) schemas.push(schema);
  const store = await openPostgresStore({ schema, maxConnections: 2, ...options });
  stores.push(store);
  return store;
}
const schemaNamed = (name: string) => `ewp_listen_${run}_${name}`;
const put = (store: PostgresEvidenceStore) => store.put(seedView(`P-${++n}`));

/** Wait (bounded) until `ok()` holds; false if it never did. */
async function until(ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

/** Start the store's listener (it starts at the first revision read) and wait until it is confirmed. */
async function listening(store: PostgresEvidenceStore): Promise<void> {
  await store.revision();
  expect(await until(() => store.listenerState === 'listening')).toBe(true);
}

/** Pool checkouts of `store` while `fn` runs: each is a round trip to the server. */
async function checkouts(store: PostgresEvidenceStore, fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const count1 = () => {
    count += 1;
  };
  store.pool.on('acquire', count1);
  try {
    await fn();
  } finally {
    store.pool.off('acquire', count1);
  }
  return count;
}

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: defaultConnectionString() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The server backends of `schema`'s listeners (named after the channel) and the last query each ran. */
function listeners(schema: string): Promise<{ pid: number; query: string }[]> {
  return withClient(
    async (c) =>
      (
        await c.query('SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [
          `ewp listener ${notifyChannel(schema)}`,
        ])
      ).rows,
  );
}

/** Terminate the server backends listening on `schema`'s channel, waiting until they are gone. */
async function killListeners(schema: string): Promise<number> {
  const pids = (await listeners(schema)).map((l) => l.pid);
  return withClient(async (c) => (await c.query('SELECT pid FROM unnest($1::int[]) AS pid WHERE pg_terminate_backend(pid, 5000)', [pids])).rowCount ?? 0);
}

/**
 * A TCP proxy to the server that forges the process id of the startup handshake (BackendKeyData), as a
 * pooler does: the session it gives is not the server process's own.
 */
async function forgingProxy(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: 5432 });
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let at = 0;
      while (pending.length - at >= 5) {
        const length = pending.readInt32BE(at + 1);
        if (pending.length - at < 1 + length) break;
        if (pending[at] === 0x4b) pending.writeInt32BE(pending.readInt32BE(at + 5) + 1, at + 5);
        at += 1 + length;
      }
      client.write(pending.subarray(0, at));
      pending = pending.subarray(at);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(defaultConnectionString());
  url.host = `127.0.0.1:${port}`;
  return { url: url.toString(), close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('the PostgreSQL revision across connections', () => {
  it("a commit on another connection changes a listening store's next revision, through a fence on its listener connection and no pool connection", async () => {
    const schema = schemaNamed('notify');
    const writer = await open(schema, { listen: false });
    await put(writer);
    const reader = await open(schema, { readOnly: true });
    await listening(reader);
    let before = await reader.revision();
    const queries = await checkouts(reader, async () => {
      for (let round = 0; round < 20; round += 1) {
        await put(writer);
        // Right after the commit returns: the fence has the notification delivered first.
        const after = await reader.revision();
        expect(after).not.toBe(before);
        // Unchanged without a commit.
        expect(await reader.revision()).toBe(after);
        before = after;
      }
    });
    expect(queries).toBe(0);
    expect(reader.listenerState).toBe('listening');
    // The fence was the listener connection's last query.
    expect(await listeners(schema)).toMatchObject([{ query: 'SELECT pg_backend_pid() AS pid' }]);
  });

  it('without the fence, a commit is seen once its notification arrives, with no query at all', async () => {
    const schema = schemaNamed('unfenced');
    const writer = await open(schema, { listen: false });
    await put(writer);
    const reader = await open(schema, { readOnly: true, fence: false });
    await listening(reader);
    const before = await reader.revision();
    let after = before;
    const queries = await checkouts(reader, async () => {
      await put(writer);
      expect(
        await until(async () => {
          after = await reader.revision();
          return after !== before;
        }),
      ).toBe(true);
      for (let i = 0; i < 50; i += 1) expect(await reader.revision()).toBe(after);
    });
    expect(queries).toBe(0);
    // The listener connection ran nothing after its LISTEN.
    expect(await listeners(schema)).toMatchObject([{ query: `LISTEN "${notifyChannel(schema)}"; SELECT pg_backend_pid() AS pid` }]);
  });

  it('without the listener, each revision read asks the server (the chain head) and sees every commit', async () => {
    const schema = schemaNamed('polling');
    const writer = await open(schema, { listen: false });
    await put(writer);
    const polling = await open(schema, { readOnly: true, listen: false });
    const seen = await polling.revision();
    expect(await checkouts(polling, () => polling.revision())).toBe(1);
    expect(polling.listenerState).toBe('off');
    await put(writer);
    expect(await polling.revision()).not.toBe(seen);
    expect(await listeners(schema)).toEqual([]);
  });

  it('a killed listener connection: the next read after a commit reads the chain head and sees it; a new listener is confirmed later', async () => {
    const schema = schemaNamed('killed');
    const writer = await open(schema, { listen: false });
    await put(writer);
    const reader = await open(schema, { readOnly: true });
    await listening(reader);
    const listened = await reader.revision();

    expect(await killListeners(schema)).toBe(1);
    expect(await until(() => reader.listenerState !== 'listening')).toBe(true);
    // No notification reaches this store now: the commit is seen from the chain head, by a query.
    await put(writer);
    let fallback = '';
    expect(
      await checkouts(reader, async () => {
        fallback = await reader.revision();
      }),
    ).toBe(1);
    expect(fallback).not.toBe(listened);
    // The next reads reconnect (after a short wait) and listen again.
    expect(
      await until(async () => {
        await reader.revision();
        return reader.listenerState === 'listening';
      }),
    ).toBe(true);
    const relistened = await reader.revision();
    // The commit made while no listener was confirmed was never notified to this store: the new
    // listener's revision differs from the old one all the same.
    expect(relistened).not.toBe(listened);
    expect(relistened).not.toBe(fallback);
    await put(writer);
    expect(await until(async () => (await reader.revision()) !== relistened)).toBe(true);
  });

  it('a transaction that rolls back notifies nobody; one that commits notifies once', async () => {
    const schema = schemaNamed('rollback');
    const writer = await open(schema, { listen: false });
    await withClient(async (c) => {
      const heard: string[] = [];
      c.on('notification', (m) => heard.push(m.channel));
      await c.query(`LISTEN "${notifyChannel(schema)}"`);
      // The second view is refused inside the transaction, after the first was written: all rolled back.
      await expect(writer.putMany([seedView('P-kept'), { proposition_id: 'P-bad', assertions: 'not a list' }])).rejects.toThrow();
      await put(writer);
      expect(await until(() => heard.length > 0)).toBe(true);
      // Notifications arrive in commit order, so one from the rolled-back transaction would be here already.
      await c.query('SELECT 1');
      expect(heard).toEqual([notifyChannel(schema)]);
    });
  });

  it('a schema name too long for a channel name of its own listens on a digest of it', async () => {
    const schema = `ewp_listen_${run}_${'x'.repeat(63 - 12 - run.length)}`;
    expect(schema).toHaveLength(63);
    const channel = notifyChannel(schema);
    expect(Buffer.byteLength(channel)).toBeLessThanOrEqual(63);
    expect(channel).not.toBe(notifyChannel(`${schema.slice(0, -1)}y`));
    const writer = await open(schema, { listen: false });
    await put(writer);
    const reader = await open(schema, { readOnly: true });
    await listening(reader);
    const before = await reader.revision();
    const queries = await checkouts(reader, async () => {
      await put(writer);
      expect(await until(async () => (await reader.revision()) !== before)).toBe(true);
    });
    expect(queries).toBe(0);
  });

  it('closing the store ends its listener connection', async () => {
    const schema = schemaNamed('close');
    const reader = await open(schema);
    await listening(reader);
    expect(await listeners(schema)).toHaveLength(1);
    await reader.close();
    expect(reader.listenerState).toBe('closed');
    expect(await until(async () => (await listeners(schema)).length === 0)).toBe(true);
  });

  it('a session whose process id is forged (a pooler in front of the server) turns the listener off; the chain head serves', async () => {
    const schema = schemaNamed('pooler');
    const writer = await open(schema, { listen: false });
    await put(writer);
    const proxy = await forgingProxy();
    const reader = await open(schema, { readOnly: true, connectionString: proxy.url });
    try {
      await reader.revision();
      expect(await until(() => reader.listenerState === 'off')).toBe(true);
      const before = await reader.revision();
      await put(writer);
      expect(await checkouts(reader, async () => expect(await reader.revision()).not.toBe(before))).toBe(1);
      expect(await listeners(schema)).toEqual([]);
    } finally {
      await reader.close();
      await proxy.close();
    }
  });
});
