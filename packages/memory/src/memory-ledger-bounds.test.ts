/**
 * What keeps the memory layer bounded on a large ledger: the auto-context and the persona checkout
 * show a bounded number of rows and bytes and say how many they left out; confidence reuses counts
 * only where T cannot change them; a repeated promotion pass does not read memories it refused before
 * on the same evidence.
 */
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import type { MemoryConfigInput } from './config.js';
import { MemoryError } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';
import { parsePersonaFile } from './persona-file.js';
import { emptySalience } from './salience-store.js';

const T = '2026-12-01T12:00:00Z';
const N = 300;

/** N observations from 3 sources, every one recalled (hot) and, with `confirmed_confidence` 40, confirmed. */
async function filled(config: MemoryConfigInput = {}) {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T, config: { confirmed_confidence: 40, ...config } });
  const hashes: string[] = [];
  for (let i = 0; i < N; i += 1) {
    hashes.push((await memory.store({ text: `reading ${i} of gauge ${i % 7} is nominal`, class: 'observation', source: `gauge-${i % 3}` })).hash);
  }
  await memory.recall({ query: 'nominal', limit: 1000 });
  return { memory, hashes };
}

const bytes = (rows: readonly { text: string }[]) => rows.reduce((n, r) => n + Buffer.byteLength(r.text, 'utf8'), 0);

describe('auto-context bounds', () => {
  it('shows at most hot_k rows per part and counts the rest as omitted', async () => {
    const { memory } = await filled();
    const context = await memory.autoContext();
    expect(context.hot.rows).toHaveLength(8);
    expect(context.hot.omitted).toBe(N - 8);
    expect(context.confirmed.rows).toHaveLength(8);
    expect(context.confirmed.omitted).toBe(N - 8);
    const all = await memory.autoContext({ limit: 1000 });
    expect([all.hot.omitted, all.confirmed.omitted]).toEqual([0, 0]);
    expect(all.hot.rows).toHaveLength(N);
  });

  it('keeps each part within context_max_bytes of text; a memory too large is left out, smaller ones after it still fit', async () => {
    const { memory } = await filled({ context_max_bytes: 300 });
    const big = await memory.store({ text: `a long note ${'x'.repeat(5000)} nominal`, class: 'observation', source: 'gauge-9' });
    for (let i = 0; i < 5; i += 1) await memory.replay(big.hash);
    const context = await memory.autoContext({ limit: 100 });
    expect(bytes(context.hot.rows)).toBeLessThanOrEqual(300);
    expect(bytes(context.confirmed.rows)).toBeLessThanOrEqual(300);
    expect(context.hot.rows.map((r) => r.hash)).not.toContain(big.hash);
    expect(context.hot.rows.length).toBeGreaterThan(5);
    expect(context.hot.rows.length + context.hot.omitted).toBe(N + 1);
    // The option wins over the configuration.
    const wider = await memory.autoContext({ limit: 100, maxBytes: 100_000 });
    expect(wider.hot.rows[0]?.hash).toBe(big.hash);
  });

  it('refuses a bad bound naming it', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    await expect(memory.autoContext({ limit: -1 })).rejects.toMatchObject({ code: 'EWP_REFUSE_MEMORY_INPUT', path: 'limit' });
    await expect(memory.autoContext({ maxBytes: 1.5 })).rejects.toMatchObject({ path: 'maxBytes' });
    for (const key of ['context_max_bytes', 'checkout_max_rows', 'checkout_max_bytes'] as const) {
      expect(() => new MemoryLedger(new MemoryEvidenceStore(), { config: { [key]: -1 } })).toThrow(MemoryError);
      expect(() => new MemoryLedger(new MemoryEvidenceStore(), { config: { [key]: -1 } })).toThrow(expect.objectContaining({ path: `config.${key}` }));
    }
  });
});

describe('checkout bounds', () => {
  it('lists at most checkout_max_rows memories, says how many it left out, and reading it back ignores the note', async () => {
    const { memory } = await filled({ checkout_max_rows: 20 });
    const file = await memory.checkout();
    const lines = parsePersonaFile(file);
    expect(lines).toHaveLength(20);
    expect(file).toContain(`… and ${N - 20} more memories not listed`);
    expect(file).toContain('checkout_max_rows');
    expect(await memory.readBack(file)).toMatchObject({ unchanged: 20, asserted: [] });
  });

  it('keeps the memory lines within checkout_max_bytes', async () => {
    const { memory } = await filled({ checkout_max_bytes: 2000 });
    const file = await memory.checkout();
    const listed = file.split('\n').filter((l) => l.startsWith('- '));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0)).toBeLessThanOrEqual(2000);
    expect(file).toContain(`… and ${N - listed.length} more memories not listed`);
  });

  it('by default lists 200 memories and says so; a checkout within its bounds has no note', async () => {
    const { memory } = await filled();
    const file = await memory.checkout();
    expect(parsePersonaFile(file)).toHaveLength(200);
    expect(file).toContain(`… and ${N - 200} more`);
    const small = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T, config: { confirmed_confidence: 40 } });
    await small.store({ text: 'The gauge reads 4 bar', class: 'observation', source: 'gauge' });
    expect(await small.checkout()).not.toContain('more memor');
  });
});

describe('confidence reuses counts only where T cannot change them', () => {
  it('a record is not counted before its time, its age counts after it, and a link is seen at once', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    const claim = await memory.store({ text: 'Valve 3 leaks', class: 'hypothesis', observed_at: '2026-11-01T00:00:00Z' });
    const obs = await memory.store({ text: 'Pressure at valve 3 drops 1 bar an hour', class: 'observation', source: 'gauge', observed_at: T });
    const confidence = async (hash: string, at: string) =>
      (await memory.recall({ query: hash === obs.hash ? 'pressure' : 'leaks', at, touch: false }))[0]!.confidence;
    expect(await confidence(obs.hash, T)).toBe(48);
    expect(await confidence(obs.hash, '2026-11-30T00:00:00Z')).toBe(0);
    // 91 days later: three whole 30-day periods since the last support.
    expect(await confidence(obs.hash, '2027-03-02T12:00:00Z')).toBe(48 - 15);
    expect(await confidence(obs.hash, T)).toBe(48);
    expect(await confidence(claim.hash, T)).toBe(0);
    await memory.link(obs.hash, claim.hash);
    expect(await confidence(claim.hash, T)).toBe(48);
    expect(await confidence(claim.hash, '2026-11-30T00:00:00Z')).toBe(0);
  });
});

describe('a repeated promotion pass', () => {
  it('does not read a memory it refused before on the same evidence, and reads the one whose evidence changed', async () => {
    const base = new MemoryEvidenceStore();
    let gets = 0;
    // The real store, with its reads counted.
    const store = new Proxy(base, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (prop === 'get') gets += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as EvidenceStore;
    const memory = new MemoryLedger(store, { now: () => T });
    const claims: string[] = [];
    for (let i = 0; i < N; i += 1) claims.push((await memory.store({ text: `guess ${i}: pump ${i} is worn`, class: 'hypothesis' })).hash);
    for (const h of claims) memory.salience.set(h, { ...emptySalience(), recall_count: 5, energy: 5 });
    expect(await memory.promotionPass()).toEqual({ examined: N, allowed: 0, blocked: N, skipped: 0 });

    const eventsBefore = (await base.readEntries({ kind: 'memory.promo_gate', limit: 100_000 })).length;
    gets = 0;
    expect(await memory.promotionPass()).toEqual({ examined: N, allowed: 0, blocked: 0, skipped: N });
    expect(gets).toBe(0);
    expect((await base.readEntries({ kind: 'memory.promo_gate', limit: 100_000 })).length).toBe(eventsBefore);

    const obs = await memory.store({
      text: 'Pump 7 vibrates at twice its rated level',
      class: 'observation',
      source: 'vibration-sensor',
      supports: [claims[7]!],
    });
    expect(obs.links[0]).toMatchObject({ status: 'linked' });
    gets = 0;
    expect(await memory.promotionPass()).toEqual({ examined: N, allowed: 1, blocked: 0, skipped: N - 1 });
    // The changed memory is read once at most (the link has just read its view, which may be reused).
    expect(gets).toBeLessThanOrEqual(1);
  });
});
