import { canonicalViewText, decodeView } from '@ewp/core';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '@ewp/ledger';
import { mem0HostedAdapter } from '@ewp/mem0';
import { type Mem0RestServer, startMem0RestServer } from './index.js';

process.env.MEM0_TELEMETRY = 'false';
const { MemoryClient } = await import('mem0ai');
const fixture = (name: string) => decodeView(adapterFixtures().find((f) => f.name === name)!.raw);

describe('Mem0 hosted MemoryClient (real client, local REST server)', () => {
  let server: Mem0RestServer;
  let client: InstanceType<typeof MemoryClient>;
  beforeAll(async () => {
    server = await startMem0RestServer();
    client = new MemoryClient({ apiKey: server.apiKey, host: server.url });
  });
  afterAll(() => server.close());

  it('round-trips through async adds and paged reads', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-rt', pageSize: 3 });
    const view = fixture('01-reinforcement');
    await adapter.put(view);
    const back = (await adapter.get(view.proposition_id))!;
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    // 100 assertion rows (among others) over pages of 3: the store paged through everything.
    expect(server.requests.filter((r) => r.path.startsWith('/v3/memories/?page=')).length).toBeGreaterThan(30);
    expect((await adapter.verifyChain()).ok).toBe(true);
  });

  it('refuses a listing whose pages hold fewer memories than the reported count, and commits nothing', async () => {
    const lossy = await startMem0RestServer({ dropOneFromEachPage: true });
    try {
      const c = new MemoryClient({ apiKey: lossy.apiKey, host: lossy.url });
      const adapter = mem0HostedAdapter(c, { userId: 'u-lossy', pageSize: 2 });
      const view = fixture('02-fork-x');
      const error = await adapter.put(view).catch((e: unknown) => e);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'truncated', message: expect.stringMatching(/reported \d+ memories but pages held \d+/) });
    } finally {
      await lossy.close();
    }
  });

  it('waits for adds the server processes in the background, and fails typed when they never show', async () => {
    const slow = await startMem0RestServer({ processingDelayMs: 40 });
    try {
      const c = new MemoryClient({ apiKey: slow.apiKey, host: slow.url });
      const view = fixture('08-verified-now');
      const adapter = mem0HostedAdapter(c, { userId: 'u-slow' });
      await adapter.put(view);
      expect((await adapter.get(view.proposition_id))?.view_id).toBe(view.view_id);
      const impatient = mem0HostedAdapter(c, { userId: 'u-impatient', visibilityTimeoutMs: 5 });
      await expect(impatient.put(view)).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'lagging' });
      expect(await impatient.get(view.proposition_id)).toBeUndefined();
    } finally {
      await slow.close();
    }
  });

  it('refuses a read after a delete outside the store', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-del' });
    const view = fixture('02-fork-x');
    await adapter.put(view);
    const raw = await adapter.rawRecords(view.proposition_id);
    await client.delete(raw.find((m) => m.metadata.ewp_searchable === true)!.id);
    await expect(adapter.get(view.proposition_id)).rejects.toMatchObject({ code: 'EWP_REFUSE_LEDGER_UNAVAILABLE', reason: 'damaged' });
  });

  it('reads through an expiry set outside the store (expiry is store-local)', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-exp' });
    const view = fixture('08-verified-now');
    await adapter.put(view);
    const raw = await adapter.rawRecords(view.proposition_id);
    const member = raw.find((m) => m.metadata.ewp_searchable === true)!;
    await client.update(member.id, { expirationDate: '2020-01-01' });
    expect(canonicalViewText((await adapter.get(view.proposition_id))!)).toBe(canonicalViewText(view));
  });

  it('marks a search that returns a subset DEGRADED, scores in adapter_meta only', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-search' });
    const view = fixture('02-fork-x');
    await adapter.put(view);
    const found = await adapter.search(view.proposition_id, view.assertions[0]!.text, { limit: 1 });
    expect(found.assertions.length + found.evidence.length).toBe(1);
    expect(found.degraded).toBe(true);
    expect(found.retrieval_scope).toBe('mem0.search');
    expect(found.omitted_sources.length).toBe(view.assertions.length + view.evidence.length - 1);
    expect(Object.keys((found.adapter_meta['@ewp/mem0'] as { retrieval_scores: object }).retrieval_scores)).toHaveLength(1);
  });
});
