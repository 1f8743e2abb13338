/**
 * What the default similarity catches and what only an embedder catches, on fixed fixtures. The
 * embedder here is a small deterministic concept lexicon standing in for a model: any function from
 * texts to vectors plugs in the same way.
 */
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { MemoryLedger } from './memory-ledger.js';
import { type Embedder, embedderSimilarity, trigramSimilarity } from './similarity.js';

const BASE = 'The backup job starts at 06:00 (read from the scheduler)';

/** Pairs the default measure scores at or above 0.85 (near copies, light rewording). */
const CAUGHT = [
  ['case and punctuation', 'the backup job starts at 06:00, read from the scheduler.'],
  ['a word added', 'The backup job starts at 06:00 (as read from the scheduler today)'],
  ['a word dropped', 'The backup job starts at 06:00 (from the scheduler)'],
  ['one word swapped in a longer sentence', 'The backup job begins at 06:00 (read from the scheduler)'],
] as const;

/** Pairs it scores below 0.85: a synonym in a short sentence, and true paraphrase. */
const MISSED = [
  ['a synonym in a short sentence', 'The backup job starts at 06:00', 'The backup job begins at 06:00'],
  ['a paraphrase', BASE, 'Nightly backups kick off at six in the morning, says the scheduler'],
] as const;

/** A different fact of the same shape, which nothing may call an echo. */
const DIFFERENT = 'The deploy job starts at 07:00 (read from the scheduler)';

const CONCEPTS: Record<string, string> = {
  backup: 'backup',
  backups: 'backup',
  deploy: 'deploy',
  starts: 'start',
  begins: 'start',
  kick: 'start',
  '06': 't06',
  six: 't06',
  '07': 't07',
  morning: 'am',
  '00': 'am',
  scheduler: 'scheduler',
  nightly: 'daily',
  daily: 'daily',
};
const AXES = [...new Set(Object.values(CONCEPTS))];

/** Bag of concepts: what a sentence embedding keeps (meaning), not how it is worded. */
const conceptEmbedder: Embedder = (texts) =>
  texts.map((t) => {
    const v = new Array<number>(AXES.length).fill(0);
    for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const c = CONCEPTS[w];
      if (c !== undefined) v[AXES.indexOf(c)] = 1;
    }
    return v;
  });

describe('echo fixtures', () => {
  it.each(CAUGHT)('the default trigram measure catches %s', (_what, text) => {
    expect(trigramSimilarity.similarities(BASE, [text])[0]).toBeGreaterThanOrEqual(0.85);
  });

  it.each(MISSED)('the default trigram measure misses %s', (_what, base, text) => {
    expect(trigramSimilarity.similarities(base, [text])[0]).toBeLessThan(0.85);
  });

  it('an embedder catches the paraphrase and still tells a different fact apart', async () => {
    const measure = embedderSimilarity(conceptEmbedder, 'concepts');
    const [synonym] = await measure.similarities(MISSED[0][1], [MISSED[0][2]]);
    const [paraphrase, different] = await measure.similarities(BASE, [MISSED[1][2], DIFFERENT]);
    expect(synonym).toBeGreaterThanOrEqual(0.85);
    expect(paraphrase).toBeGreaterThanOrEqual(0.85);
    expect(different).toBeLessThan(0.85);
    expect(trigramSimilarity.similarities(BASE, [DIFFERENT])[0]).toBeLessThan(0.85);
  });

  it('at link time: trigram counts a same-source paraphrase as a new support; the default measure and an embedder call it an echo', async () => {
    const run = async (options: ConstructorParameters<typeof MemoryLedger>[1]) => {
      const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => '2026-12-01T00:00:00Z', ...options });
      const claim = await memory.store({ text: 'So the 05:50 maintenance window is safe', class: 'inference' });
      await memory.store({ text: BASE, class: 'observation', source: 'scheduler', supports: [claim.hash] });
      const again = await memory.store({ text: MISSED[1][2], class: 'observation', source: 'scheduler', supports: [claim.hash] });
      return { link: again.links[0]!, state: await memory.show(claim.hash) };
    };
    const lexical = await run({ config: { measure: 'trigram-cosine', sim_threshold: 0.85 } });
    expect(lexical.link.echo).toBe(false);
    expect(lexical.state.support_count).toBe(2);
    // Same source either way: distinct sources do not rise even when the echo is missed.
    expect(lexical.state.distinct_sources).toBe(1);
    const byDefault = await run({});
    expect(byDefault.link).toMatchObject({ echo: true });
    expect(byDefault.state).toMatchObject({ support_count: 1, distinct_sources: 1, echo_count: 1 });
    const [defaultEvent] = (await byDefault.state.events).filter((e) => e.kind === 'memory.link' && e.body.echo === true);
    expect(defaultEvent?.body.measure).toBe('word-vectors');
    const embedded = await run({ embedder: conceptEmbedder });
    expect(embedded.link).toMatchObject({ echo: true });
    expect(embedded.state).toMatchObject({ support_count: 1, distinct_sources: 1, echo_count: 1 });
    const [event] = (await embedded.state.events).filter((e) => e.kind === 'memory.link' && e.body.echo === true);
    expect(event?.body.measure).toBe('embedder-cosine');
  });

  it('invisible characters and compatibility forms do not make a repeat look new, for any measure', async () => {
    const hidden = 'The back\u200bup job st\u00adarts at \uff10\uff16:00 (read from the sche\u2066duler\u2069)';
    expect(trigramSimilarity.similarities(BASE, [hidden])[0]).toBe(1);
    const seen: string[] = [];
    const memory = new MemoryLedger(new MemoryEvidenceStore(), {
      now: () => '2026-12-01T00:00:00Z',
      similarity: {
        name: 'spy',
        similarities: (text, candidates) => {
          seen.push(text, ...candidates);
          return candidates.map(() => 0);
        },
      },
    });
    const claim = await memory.store({ text: 'So the 05:50 maintenance window is safe', class: 'inference' });
    await memory.store({ text: BASE, class: 'observation', source: 'scheduler', supports: [claim.hash] });
    await memory.store({ text: hidden, class: 'observation', source: 'scheduler', supports: [claim.hash] });
    expect(seen).toContain(BASE);
    expect(seen.some((t) => /[\u200b\u00ad\u2066\u2069\uff10]/.test(t))).toBe(false);
  });
});
