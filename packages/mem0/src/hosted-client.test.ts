import { canonicalViewText, decodeView } from '@ewp/core';
import { adapterFixtures } from '@ewp/conformance/adapter-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mem0AdapterError, mem0HostedAdapter } from './index.js';
import { type Mem0RestServer, startMem0RestServer } from './testing/index.js';

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
    await adapter.write(view);
    const back = await adapter.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    // 100 assertions + 1 snapshot memory over pages of 3: the adapter paged through everything.
    expect(server.requests.filter((r) => r.path.startsWith('/v3/memories/?page=')).length).toBeGreaterThan(30);
  });

  it('refuses a read whose pages hold fewer memories than the reported count', async () => {
    const lossy = await startMem0RestServer({ dropOneFromEachPage: true });
    try {
      const c = new MemoryClient({ apiKey: lossy.apiKey, host: lossy.url });
      const adapter = mem0HostedAdapter(c, { userId: 'u-lossy', settleTimeoutMs: 300 });
      const view = fixture('02-fork-x');
      // The write never sees its snapshot whole, so it does not report success...
      const error = await adapter.write(view).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Mem0AdapterError);
      expect(error).toMatchObject({ code: 'SETTLE_TIMEOUT', details: { cause: expect.stringMatching(/reported \d+ memories but pages held \d+/) } });
      // ...and a read refuses rather than use the short pages.
      await expect(adapter.read(view.proposition_id)).rejects.toMatchObject({ code: 'SNAPSHOT_INTEGRITY' });
    } finally {
      await lossy.close();
    }
  });

  it('refuses a read after a memory was updated outside the adapter, and names it', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-upd' });
    const view = fixture('08-verified-now');
    await adapter.write(view);
    const raw = await adapter.rawRecords(view.proposition_id);
    const member = raw.find((m) => m.metadata.ewp_kind === 'evidence')!;
    await client.update(member.id, { text: 'something else' });
    const error = await adapter.read(view.proposition_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Mem0AdapterError);
    expect(error).toMatchObject({ code: 'SNAPSHOT_INTEGRITY', details: { altered: [member.id] } });
    const report = await adapter.inspect(view.proposition_id);
    expect(report[0]).toMatchObject({ status: 'altered', altered: [member.id] });
    const partial = await adapter.read(view.proposition_id, { allowPartial: true });
    expect(partial.degraded).toBe(true);
    expect(partial.omitted_sources).toContain(`mem0:memory:${member.id}`);
  });

  it('refuses a read after a delete outside the adapter', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-del' });
    const view = fixture('02-fork-x');
    await adapter.write(view);
    const raw = await adapter.rawRecords(view.proposition_id);
    await client.delete(raw.find((m) => m.metadata.ewp_kind === 'assertion')!.id);
    await expect(adapter.read(view.proposition_id)).rejects.toMatchObject({ code: 'SNAPSHOT_INTEGRITY', details: { missing: 1 } });
  });

  it('reads an expiry set outside the adapter as a store note, not a loss', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-exp' });
    const view = fixture('08-verified-now');
    await adapter.write(view);
    const raw = await adapter.rawRecords(view.proposition_id);
    const member = raw.find((m) => m.metadata.ewp_kind === 'assertion')!;
    await client.update(member.id, { expirationDate: '2020-01-01' });
    const back = await adapter.read(view.proposition_id);
    expect(canonicalViewText(back)).toBe(canonicalViewText(view));
    const notes = (back.adapter_meta['@ewp/mem0'] as { store_notes: { memory_id: string; note: string }[] }).store_notes;
    expect(notes).toContainEqual({ memory_id: member.id, note: 'mem0 expiration_date 2020-01-01' });
  });

  it('marks a search that returns a subset DEGRADED, scores in adapter_meta only', async () => {
    const adapter = mem0HostedAdapter(client, { userId: 'u-search' });
    const view = fixture('02-fork-x');
    await adapter.write(view);
    const found = await adapter.search(view.proposition_id, view.assertions[0]!.text, { limit: 1 });
    expect(found.assertions.length + found.evidence.length).toBe(1);
    expect(found.degraded).toBe(true);
    expect(found.retrieval_scope).toBe('mem0.search');
    expect(found.omitted_sources.length).toBe(view.assertions.length + view.evidence.length - 1);
    expect(Object.keys((found.adapter_meta['@ewp/mem0'] as { retrieval_scores: object }).retrieval_scores)).toHaveLength(1);
  });
});
