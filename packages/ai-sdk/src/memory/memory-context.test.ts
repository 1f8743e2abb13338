/**
 * The evidence layer's context in AI SDK 6 prompts, through the real `generateText` and
 * `wrapLanguageModel` with `MockLanguageModelV3` (ai/test), over a SQLite file ledger: the system
 * prompt the model received holds the recalled, hot and confirmed parts under their labels, the
 * hypothesis labelled a hypothesis and the refuted memory disputed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ewp/core';
import { MemoryLedger, memoryLedgerFor } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '../../test/scripted-model.js';
import { memoryContextMiddleware, memorySystemPrompt } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-ai-sdk-memory-'));
let n = 0;
const stores: SqliteEvidenceStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ledgerWithMemories() {
  const store = new SqliteEvidenceStore(join(dir, `ledger-${++n}.sqlite`));
  stores.push(store);
  const ledger = new MemoryLedger(store);
  const backup = await ledger.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
  await ledger.store({ text: 'cron log: backup started 06:00:02', class: 'observation', source: 'cron-log', supports: [backup.hash] });
  const guess = await ledger.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
  const window = await ledger.store({ text: 'The maintenance window is 05:00', class: 'observation', source: 'wiki' });
  const calendar = await ledger.store({ text: 'The change calendar moved maintenance to 04:00', class: 'observation', source: 'calendar' });
  await ledger.refute(calendar.hash, window.hash);
  for (let i = 0; i < 3; i++) await ledger.recall({ query: 'scheduler misconfigured' });
  await ledger.recall({ query: 'maintenance window 05:00' });
  return { store, ledger, backup, guess, window };
}

type Prompt = ReturnType<typeof scriptedModel>['prompts'][number];
const systemTexts = (prompt: Prompt) => prompt.filter((m) => m.role === 'system').map((m) => m.content as string);
const RECALLED = '## recalled for this message';
const HOT = '## hot: recalled often or recently (salience).';
const CONFIRMED = '## confirmed: warrant ACCEPTED, or confidence at or above the threshold';

/** The parts of a context text, each checked to come in order. */
function parts(text: string) {
  const [r, h, c] = [text.indexOf(RECALLED), text.indexOf(HOT), text.indexOf(CONFIRMED)];
  expect(h).toBeGreaterThan(0);
  expect(c).toBeGreaterThan(h);
  return { recalled: r < 0 ? '' : text.slice(r, h), hot: text.slice(h, c), confirmed: text.slice(c) };
}

describe('memorySystemPrompt with generateText (AI SDK 6)', () => {
  it('the system prompt the model received: hot and confirmed labelled apart, the hypothesis a hypothesis, the refuted memory disputed', async () => {
    const { ledger, backup, guess, window } = await ledgerWithMemories();
    const question = 'Is the scheduler misconfigured?';
    const system = await memorySystemPrompt({ ledger, query: question, system: 'You are the ops agent.' });
    const model = scriptedModel([{ text: 'That is a hypothesis so far.' }]);
    await generateText({ model, system, prompt: question });

    const [received] = systemTexts(model.prompts[0]!);
    expect(received!.startsWith('You are the ops agent.\n\nMemory (EWP evidence layer).')).toBe(true);
    const { recalled, hot, confirmed } = parts(received!);
    expect(recalled).toContain(
      `- [HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0 · warrant TENTATIVE · mem:${guess.hash})`,
    );
    expect(hot).toContain('[HYPOTHESIS] The scheduler is misconfigured on every host');
    expect(hot).toContain(`- [DISPUTED] The maintenance window is 05:00 (observation`);
    expect(hot).toContain(window.hash);
    expect(confirmed).not.toContain(guess.hash);
    expect(confirmed).toContain(`- The backup job starts at 06:00 (observation · confidence 66`);
    expect(confirmed).toContain(backup.hash);
  });

  it('without a query there is no recalled part; a bad option is refused by name', async () => {
    const { store, ledger } = await ledgerWithMemories();
    const text = await memorySystemPrompt({ ledger });
    expect(text).not.toContain(RECALLED);
    expect(parts(text).hot).toContain('[HYPOTHESIS]');
    await expect(memorySystemPrompt({} as never)).rejects.toThrow(InvalidArgumentError);
    await expect(memorySystemPrompt({ store, system: 7 as never })).rejects.toSatisfy((e) => (e as InvalidArgumentError).path === 'system');
    await expect(memorySystemPrompt({ store, query: 'x', limit: 0.5 })).rejects.toSatisfy((e) => (e as { path?: string }).path === 'limit');
  });
});

describe('memoryContextMiddleware with wrapLanguageModel (AI SDK 6)', () => {
  it('every call gets the context after the caller system prompt; the user message is recalled once in a multi-step run', async () => {
    const { store, guess } = await ledgerWithMemories();
    // The middleware over `store` uses the store's shared ledger, as MCP and REST do.
    const shared = memoryLedgerFor(store);
    await shared.recall({ query: 'scheduler misconfigured', touch: false });
    const before = shared.salience.get(guess.hash)?.recall_count ?? 0;
    const base = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'status', input: { host: 'web1' } }] }, { text: 'It is unconfirmed.' }]);
    const model = wrapLanguageModel({ model: base, middleware: memoryContextMiddleware({ store }) });
    const status = tool({ description: 'Host status', inputSchema: z.object({ host: z.string() }), execute: async ({ host }) => `${host} is up` });
    await generateText({ model, system: 'You are the ops agent.', prompt: 'Is the scheduler misconfigured?', tools: { status }, stopWhen: stepCountIs(3) });

    expect(base.prompts).toHaveLength(2);
    for (const prompt of base.prompts) {
      const systems = systemTexts(prompt);
      expect(systems[0]).toBe('You are the ops agent.');
      expect(prompt[1]!.role).toBe('system');
      const { recalled, hot } = parts(systems[1]!);
      expect(recalled).toContain(
        `[HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0 · warrant TENTATIVE · mem:${guess.hash})`,
      );
      expect(hot).toContain('[HYPOTHESIS]');
    }
    // Recalled on the first step only (the user message was the newest there), not again after the tool result.
    expect(shared.salience.get(guess.hash)!.recall_count).toBe(before + 1);
  });
});
