/**
 * `@ewp/ai-sdk/memory` under AI SDK 7 (ai@7, MockLanguageModelV4), over a JSON-file ledger (the SQLite
 * addon is built for the machine's Node, not this lane's; packages/ai-sdk tests SQLite under AI SDK 6): the
 * system prompt `memorySystemPrompt` gives, and the v3 middleware through ai@7's `wrapLanguageModel`,
 * reach the model with hot and confirmed labelled apart and the hypothesis labelled a hypothesis.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryContextMiddleware, memorySystemPrompt } from '@ewp/ai-sdk/memory';
import { JsonFileEvidenceStore } from '@ewp/ledger';
import { MemoryLedger } from '@ewp/memory';
import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModelV4 } from '../test/scripted-model-v4.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-ai-sdk7-memory-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ledgerWithMemories() {
  const store = new JsonFileEvidenceStore(join(dir, `ledger-${++n}`));
  const ledger = new MemoryLedger(store);
  const backup = await ledger.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
  await ledger.store({ text: 'cron log: backup started 06:00:02', class: 'observation', source: 'cron-log', supports: [backup.hash] });
  const guess = await ledger.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
  const window = await ledger.store({ text: 'The maintenance window is 05:00', class: 'observation', source: 'wiki' });
  const calendar = await ledger.store({ text: 'The change calendar moved maintenance to 04:00', class: 'observation', source: 'calendar' });
  await ledger.refute(calendar.hash, window.hash);
  for (let i = 0; i < 3; i++) await ledger.recall({ query: 'scheduler misconfigured' });
  return { ledger, backup, guess, window };
}

type Prompt = ReturnType<typeof scriptedModelV4>['prompts'][number];
const systemTexts = (prompt: Prompt) => prompt.filter((m) => m.role === 'system').map((m) => m.content as string);
const HOT = '## hot: recalled often or recently (salience).';
const CONFIRMED = '## confirmed: warrant ACCEPTED, or confidence at or above the threshold';

function checkParts(text: string, hashes: { backup: string; guess: string; window: string }) {
  const h = text.indexOf(HOT);
  const c = text.indexOf(CONFIRMED);
  expect(h).toBeGreaterThan(0);
  expect(c).toBeGreaterThan(h);
  const hot = text.slice(h, c);
  const confirmed = text.slice(c);
  expect(hot).toContain(`- [HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0 · warrant TENTATIVE · mem:${hashes.guess})`);
  expect(hot).toContain(`- [DISPUTED] The maintenance window is 05:00 (observation`);
  expect(confirmed).not.toContain(hashes.guess);
  expect(confirmed).toContain(`- The backup job starts at 06:00 (observation · confidence 66 · warrant TENTATIVE · mem:${hashes.backup})`);
}

describe('@ewp/ai-sdk/memory with AI SDK 7', () => {
  it('memorySystemPrompt as generateText system: the model receives the labelled parts', async () => {
    const { ledger, backup, guess, window } = await ledgerWithMemories();
    await ledger.recall({ query: 'maintenance window 05:00' });
    const model = scriptedModelV4([{ text: 'A hypothesis so far.' }]);
    const question = 'Is the scheduler misconfigured?';
    await generateText({ model, system: await memorySystemPrompt({ ledger, query: question }), prompt: question });
    const [system] = systemTexts(model.prompts[0]!);
    expect(system).toContain('## recalled for this message');
    checkParts(system!, { backup: backup.hash, guess: guess.hash, window: window.hash });
  });

  it('memoryContextMiddleware through ai@7 wrapLanguageModel: every step gets the context, the message is recalled once', async () => {
    const { ledger, backup, guess, window } = await ledgerWithMemories();
    await ledger.recall({ query: 'maintenance window 05:00' });
    const before = ledger.salience.get(guess.hash)!.recall_count;
    const base = scriptedModelV4([{ toolCalls: [{ id: 'c1', name: 'status', input: { host: 'web1' } }] }, { text: 'Unconfirmed.' }]);
    const model = wrapLanguageModel({ model: base, middleware: memoryContextMiddleware({ ledger }) });
    const status = tool({ description: 'Host status', inputSchema: z.object({ host: z.string() }), execute: async ({ host }) => `${host} is up` });
    await generateText({ model, prompt: 'Is the scheduler misconfigured?', tools: { status }, stopWhen: stepCountIs(3) });
    expect(base.prompts).toHaveLength(2);
    for (const prompt of base.prompts) checkParts(systemTexts(prompt)[0]!, { backup: backup.hash, guess: guess.hash, window: window.hash });
    expect(ledger.salience.get(guess.hash)!.recall_count).toBe(before + 1);
  });
});
