import { testSource } from '@ewp/conformance';
import { randomBytes } from 'node:crypto';
import { EwpError } from '@ewp/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dropPostgresLedger, openPostgresStore, type PostgresEvidenceStore } from './postgres-store.js';

const schema = `ewp_nul_${randomBytes(4).toString('hex')}`;
let store: PostgresEvidenceStore;
beforeAll(async () => {
  store = await openPostgresStore({ schema, maxConnections: 2 });
});
afterAll(async () => {
  await store.close();
  await dropPostgresLedger(schema);
});

const source = testSource('s1');
const view = (pid: string) => ({
  proposition_id: pid,
  view_id: 'v1',
  assertions: [
    {
      assertion_id: 'a1',
      proposition_id: pid,
      text: 'nul\u0000inside text is fine',
      asserted_by: 'agent',
      assertion_confidence: 0.5,
      source,
      asserted_at: '2026-09-01T00:00:00+00:00',
    },
  ],
  evidence: [],
  checks: [],
});

it('an id holding U+0000 is refused with a typed code (PostgreSQL text cannot hold it); nothing is written', async () => {
  const refusal = await store.put(view('P\u0000nul')).catch((e: unknown) => e);
  expect(EwpError.isInstance(refusal)).toBe(true);
  expect((refusal as EwpError).code).toBe('EWP_REFUSE_UNSTORABLE_TEXT');
  const read = await store.get('P\u0000nul').catch((e: unknown) => e);
  expect((read as EwpError).code).toBe('EWP_REFUSE_UNSTORABLE_TEXT');
  expect(await store.listPropositions()).toEqual([]);
  expect((await store.verifyChain()).ok).toBe(true);
});

it('a NUL inside a text (escaped in the stored JSON) is kept', async () => {
  expect((await store.put(view('P-nul-text'))).status).toBe('stored');
  expect((await store.get('P-nul-text'))?.assertions[0]?.text).toBe('nul\u0000inside text is fine');
});
