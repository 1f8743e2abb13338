/**
 * Every tool called with every argument (and every nested field) replaced by a malformed value:
 * each call gets a success or a specific EWP_* refusal, never a protocol error, and the server
 * keeps serving. EWP_FUZZ_ROUNDS adds random values on top of the fixed list.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EWP_TOOL_CODES } from '../src/index.js';
import { type Connected, connect, ok, outcome } from './harness.js';
import { T, verifiedView } from './views.js';

const HUGE = 'x'.repeat(200_000);
const MALFORMED: unknown[] = [null, '', 0, -1, true, false, [], {}, 'x', 1.5, HUGE, [null], { a: { b: [1] } }, '\u0000\ud800', 1e308, -0];

const source = { content_hash: 'sha256:p', observed_at: '2026-09-21T18:40:00Z', origin_type: 'extract' };
const BASE: Record<string, Record<string, unknown>> = {
  ewp_warrant_now: {
    proposition_id: 'P-win',
    view_id: 'v-ver',
    evaluated_at: T,
    policy_id: 'reference-v2',
    policy_version: 'reference-v2',
    ingest_attestation: true,
  },
  ewp_warrant_now_inline: { view: verifiedView('P-inline'), evaluated_at: T, ingest_attestation: true },
  ewp_evidence_view_put: { view: verifiedView('P-put'), ingest_attestation: true },
  ewp_evidence_view_get: { proposition_id: 'P-win', view_id: 'v-ver' },
  ewp_check_record: {
    proposition_id: 'P-win',
    check: { check_id: 'kf', method: 'inference', scope: 's', observed_at: T, result: 'supports', subjects: ['server01'], source },
    new_view_id: 'v-f',
    ingest_attestation: true,
  },
  ewp_evidence_record: {
    proposition_id: 'P-win',
    evidence: { evidence_id: 'ef', polarity: 'supports', content: 'c', observed_at: T, source },
    text: 'claim',
    assertion_id: 'af',
    asserted_by: 'agent',
    assertion_confidence: 0.5,
    new_view_id: 'v-e',
    ingest_attestation: true,
  },
  ewp_may_act: {
    proposition_id: 'P-win',
    action: { action_id: 'a', kind: 'shell', risk: 'high', reversible: false },
    risk_policy: { high_requires_accepted: true, high_requires_no_open_conflict: true },
  },
  ewp_memory_context: { proposition_id: 'P-win', evaluated_at: T, view_id: 'v-ver', query: 'os' },
  ewp_list_propositions: { query: 'win', limit: 10 },
};

/** Every path into the arguments (objects only, up to three levels; arrays are replaced whole). */
function paths(value: Record<string, unknown>, prefix: string[] = [], depth = 0): string[][] {
  const out: string[][] = [];
  for (const [key, child] of Object.entries(value)) {
    out.push([...prefix, key]);
    if (depth < 2 && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      out.push(...paths(child as Record<string, unknown>, [...prefix, key], depth + 1));
    }
  }
  return out;
}

function replaced(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const child = at[key];
    if (typeof child !== 'object' || child === null || Array.isArray(child)) return copy;
    at = child as Record<string, unknown>;
  }
  at[path.at(-1) as string] = value;
  return copy;
}

/** A small deterministic PRNG so failures replay. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 1 ? 6 : 8));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return Math.floor(next() * 2 ** 40) - 2 ** 39;
    case 2:
      return next() * 1e6;
    case 3:
      return next() < 0.5;
    case 4:
      return String.fromCharCode(...Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 0xffff)));
    case 5:
      return ['supports', 'opposes', 'high', 'low', T, 'tool', 'P-win', 'v-ver'][Math.floor(next() * 8)];
    case 6:
      return Array.from({ length: Math.floor(next() * 3) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: Math.floor(next() * 3) }, (_, i) => [`k${i}`, randomValue(next, depth + 1)]));
  }
}

let c: Connected;
beforeAll(async () => {
  c = await connect({ ingest: true });
  await ok(c.client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
});
afterAll(async () => c.close());

async function expectSpecific(tool: string, args: Record<string, unknown>): Promise<void> {
  let result: unknown;
  try {
    result = await c.client.callTool({ name: tool, arguments: args });
  } catch (error) {
    const detail = error instanceof McpError ? `${error.code} ${error.message}` : String(error);
    throw new Error(`${tool} ${JSON.stringify(args).slice(0, 300)} → protocol error ${detail}`);
  }
  const o = outcome(result);
  if (!o.ok) expect(EWP_TOOL_CODES, `${tool}: ${o.code}`).toContain(o.code);
}

describe('malformed tool arguments', () => {
  for (const [label, base] of Object.entries(BASE)) {
    const tool = label.replace(/_inline$/, '');
    it(`${label}: every argument × ${MALFORMED.length} malformed values`, async () => {
      await expectSpecific(tool, base);
      for (const path of paths(base)) {
        for (const value of MALFORMED) await expectSpecific(tool, replaced(base, path, value));
      }
      // Unknown extra arguments and a whole-arguments replacement.
      await expectSpecific(tool, { ...base, unexpected: HUGE });
      await expectSpecific(tool, {});
      // Still serving, and the good call still works.
      await c.client.ping();
      expect((await ok(c.client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T })).view_id).toBeTypeOf('string');
    });
  }

  it('random values (EWP_FUZZ_ROUNDS, default 300)', async () => {
    const rounds = Number(process.env.EWP_FUZZ_ROUNDS ?? 300);
    const next = random(20260921);
    const labels = Object.keys(BASE);
    for (let i = 0; i < rounds; i++) {
      const label = labels[Math.floor(next() * labels.length)] as string;
      const base = BASE[label] as Record<string, unknown>;
      const all = paths(base);
      let args = base;
      for (let n = 1 + Math.floor(next() * 3); n > 0; n--) {
        args = replaced(args, all[Math.floor(next() * all.length)] as string[], randomValue(next));
      }
      await expectSpecific(label.replace(/_inline$/, ''), args);
    }
    await c.client.ping();
  });
});
