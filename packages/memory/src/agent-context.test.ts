/**
 * The auto-context as text: hot and confirmed under their own labels, a disputed memory marked
 * disputed and a hypothesis a hypothesis in every part, the recalled part only with a query, and a
 * recall with `touch: false` leaving salience as it was.
 */
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { agentContext, agentContextText } from './agent-context.js';
import { contextRowLabels } from './memory-labels.js';
import { MemoryError } from './errors.js';
import { MemoryLedger } from './memory-ledger.js';

const T = '2026-12-01T12:00:00Z';

async function scenario() {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
  const backup = await memory.store({ text: 'The backup job starts at 06:00', class: 'observation', source: 'scheduler' });
  await memory.store({ text: 'cron log: backup started 06:00:02', class: 'observation', source: 'cron-log', supports: [backup.hash] });
  const guess = await memory.store({ text: 'The scheduler is misconfigured on every host', class: 'hypothesis' });
  const window = await memory.store({ text: 'The maintenance window is 05:00', class: 'observation', source: 'wiki' });
  const calendar = await memory.store({ text: 'The change calendar moved maintenance to 04:00', class: 'observation', source: 'calendar' });
  await memory.refute(calendar.hash, window.hash);
  for (let i = 0; i < 3; i++) await memory.recall({ query: 'scheduler misconfigured' });
  await memory.recall({ query: 'maintenance window 05:00' });
  return { memory, backup, guess, window };
}

describe('agentContextText', () => {
  it('hot and confirmed are two labelled parts; the hypothesis and the disputed memory carry their labels', async () => {
    const { memory, backup, guess, window } = await scenario();
    const context = await agentContext(memory);
    expect(context.recalled).toBeNull();
    const text = agentContextText(context);
    const hot = text.indexOf(`## ${context.hot.label}`);
    const confirmed = text.indexOf(`## ${context.confirmed.label}`);
    expect(hot).toBeGreaterThan(0);
    expect(confirmed).toBeGreaterThan(hot);
    const hotPart = text.slice(hot, confirmed);
    const confirmedPart = text.slice(confirmed);
    expect(hotPart).toContain(
      `- [HYPOTHESIS] The scheduler is misconfigured on every host (hypothesis · confidence 0 · warrant TENTATIVE · mem:${guess.hash})`,
    );
    expect(hotPart).toMatch(new RegExp(`- \\[DISPUTED\\] The maintenance window is 05:00 \\(observation · confidence \\d+ .*mem:${window.hash}\\)`));
    // The hypothesis is hot, never confirmed; the twice-observed backup time is confirmed.
    expect(confirmedPart).not.toContain(guess.hash);
    expect(confirmedPart).toContain(`- The backup job starts at 06:00 (observation · confidence 66`);
    expect(confirmedPart).toContain(backup.hash);
  });

  it('with a query, the recalled part comes first with its labels, and touch false leaves salience alone', async () => {
    const { memory, guess } = await scenario();
    const before = memory.salience.get(guess.hash)!.recall_count;
    const context = await agentContext(memory, { query: 'is the scheduler misconfigured?', touch: false });
    expect(memory.salience.get(guess.hash)!.recall_count).toBe(before);
    expect(context.recalled?.rows[0]).toMatchObject({ hash: guess.hash, class: 'hypothesis', confidence: 0, disputed: false });
    const text = agentContextText(context);
    expect(text.indexOf(`## ${context.recalled!.label}`)).toBeLessThan(text.indexOf(`## ${context.hot.label}`));
    await agentContext(memory, { query: 'is the scheduler misconfigured?' });
    expect(memory.salience.get(guess.hash)!.recall_count).toBe(before + 1);
  });

  it('an empty part says (none); labels follow class and dispute only', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    const text = agentContextText(await agentContext(memory, { project: 'ops' }));
    expect(text).toContain('Project ops.');
    expect(text.match(/- \(none\)/g)).toHaveLength(2);
    expect(contextRowLabels({ class: 'observation', disputed: false })).toEqual([]);
    expect(contextRowLabels({ class: 'inference', disputed: true })).toEqual(['[DISPUTED]', '[INFERENCE]']);
  });

  it('a query that is not a string is refused by name', async () => {
    const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => T });
    await expect(agentContext(memory, { query: 7 as never })).rejects.toSatisfy((e) => MemoryError.isInstance(e) && e.path === 'query');
  });
});
