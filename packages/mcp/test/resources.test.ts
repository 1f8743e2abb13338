/** Resources: the protocol descriptor, stored views and their warrant (docs/spec/store-contract.md §5 "Resources"). */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connected, connect, ok } from './harness.js';
import { extractedView, T, verifiedView } from './views.js';

let c: Connected;
beforeAll(async () => {
  c = await connect({ ingest: true });
  await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
  await ok(c.client, 'ewp_evidence_view_put', { view: extractedView('ops/db 1+1') });
});
afterAll(async () => c.close());

async function read(uri: string): Promise<Record<string, unknown>> {
  const result = await c.client.readResource({ uri });
  expect(result.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((result.contents[0] as { text: string }).text);
}

async function readError(uri: string): Promise<{ code: number; ewp: string }> {
  try {
    await c.client.readResource({ uri });
  } catch (error) {
    if (error instanceof McpError) return { code: error.code, ewp: (error.data as { ewp_code: string }).ewp_code };
    throw error;
  }
  throw new Error(`${uri} was readable`);
}

describe('resources', () => {
  it('lists the protocol and the stored propositions', async () => {
    const { resources } = await c.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['ewp://protocol', 'ewp://proposition/ops%2Fdb%201%2B1', 'ewp://proposition/P-win']);
    expect(await read('ewp://protocol')).toEqual({ protocol: 'EWP-0.2.0', policy: 'reference-v2', mcp: 'ewp-mcp' });
  });

  it('lists the two templates', async () => {
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'ewp://proposition/{proposition_id}',
      'ewp://proposition/{proposition_id}/warrant?evaluated_at={evaluated_at}',
    ]);
  });

  it('reads the latest view; the id is a percent-decoded segment', async () => {
    expect((await read('ewp://proposition/P-win')).view_id).toBe('v-ver');
    expect((await read('ewp://proposition/ops%2Fdb%201%2B1')).proposition_id).toBe('ops/db 1+1');
  });

  it('reads the warrant; a raw + in the query stays + (so +00:00 works unencoded)', async () => {
    const w = await read(`ewp://proposition/P-win/warrant?evaluated_at=${T}`);
    expect(w.evaluated_at).toBe(T);
    expect(w.warrant).toMatchObject({ acceptance: 'ACCEPTED' });
    const alt = await read('ewp://proposition/P-win?kind=warrant&evaluated_at=2026-09-21T21%3A00%3A00Z');
    expect(alt.evaluated_at).toBe('2026-09-21T21:00:00Z');
  });

  it('refuses unknown and missing resources with -32002, other refusals with -32602', async () => {
    expect(await readError('ewp://proposition/P-none')).toEqual({ code: -32002, ewp: 'EWP_REFUSE_MISSING_VIEW' });
    expect(await readError('ewp://nothing')).toEqual({ code: -32002, ewp: 'EWP_UNKNOWN_RESOURCE' });
    expect(await readError('https://example.com/')).toEqual({ code: -32002, ewp: 'EWP_UNKNOWN_RESOURCE' });
    expect(await readError('ewp://proposition/P-win/other')).toEqual({ code: -32002, ewp: 'EWP_UNKNOWN_RESOURCE' });
    expect(await readError('ewp://proposition/%E0%A4%A')).toEqual({ code: -32002, ewp: 'EWP_UNKNOWN_RESOURCE' });
    expect(await readError('ewp://proposition/P-win/warrant')).toEqual({ code: -32602, ewp: 'EWP_MISSING_EVALUATED_AT' });
    expect(await readError('ewp://proposition/P-win/warrant?evaluated_at=soon')).toEqual({ code: -32602, ewp: 'EWP_REFUSE_INVALID_ARGUMENTS' });
  });
});

describe('completion/complete for proposition ids', () => {
  const complete = (uri: string, value: string, name = 'proposition_id') =>
    c.client.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } });

  it('completes stored ids by prefix, for both proposition templates', async () => {
    expect(c.client.getServerCapabilities()?.completions).toEqual({});
    const view = await complete('ewp://proposition/{proposition_id}', 'P-');
    expect(view.completion.values).toEqual(['P-win']);
    const warrant = await complete('ewp://proposition/{proposition_id}/warrant?evaluated_at={evaluated_at}', 'ops/');
    expect(warrant.completion.values).toEqual(['ops/db 1+1']);
    expect((await complete('ewp://proposition/{proposition_id}', 'win')).completion.values).toEqual([]);
    expect((await complete('ewp://proposition/{proposition_id}', '')).completion.values).toEqual(['P-win', 'ops/db 1+1']);
  });

  it('completes nothing for other templates or arguments', async () => {
    expect((await complete('ewp://proposition/{proposition_id}', 'P-', 'evaluated_at')).completion.values).toEqual([]);
    expect((await complete('ewp://other/{x}', 'P-')).completion.values).toEqual([]);
  });
});
