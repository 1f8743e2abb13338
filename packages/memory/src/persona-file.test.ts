import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { agentContext, agentContextText } from './agent-context.js';
import { MEMORY_LABELS } from './memory-labels.js';
import { MemoryLedger } from './memory-ledger.js';
import { parsePersonaFile } from './persona-file.js';
import { BACKUP, SUITE_T } from './testing/index.js';

async function scenario() {
  const memory = new MemoryLedger(new MemoryEvidenceStore(), { now: () => SUITE_T, config: { promotion_energy: 1 } });
  const confirmed = await memory.store({ text: BACKUP.claim, class: 'inference' });
  await memory.store({ text: BACKUP.observation, class: 'observation', source: 'scheduler', supports: [confirmed.hash] });
  await memory.store({ text: BACKUP.independent, class: 'observation', source: 'cron', supports: [confirmed.hash] });
  const disputed = await memory.store({ text: 'The EU hosts run the backup first', class: 'inference' });
  await memory.store({ text: 'The EU backup log shows it ran first on 2026-11-29', class: 'observation', source: 'eu-log', supports: [disputed.hash] });
  const against = await memory.store({ text: 'The US backup log shows it ran first on 2026-11-29', class: 'observation', source: 'us-log' });
  await memory.refute(against.hash, disputed.hash);
  const hypothesis = await memory.store({ text: BACKUP.hypothesis, class: 'hypothesis' });
  await memory.store({ text: 'Host eu-3 has a scheduler drift of 10 minutes', class: 'observation', source: 'ntp', supports: [hypothesis.hash] });
  const unsupported = await memory.store({ text: 'Every host will fail tonight', class: 'hypothesis' });
  for (const h of [disputed.hash, hypothesis.hash, unsupported.hash]) await memory.replay(h);
  return { memory, confirmed, disputed, hypothesis, unsupported };
}

describe('MEMORY.md checkout', () => {
  it('states disputed things as disputed and hypotheses as hypotheses; a blocked hypothesis is not in it', async () => {
    const { memory, confirmed, disputed, hypothesis, unsupported } = await scenario();
    const md = await memory.checkout({ at: SUITE_T });
    expect(md).toContain(
      `- [DISPUTED] [INFERENCE] The EU hosts run the backup first  _(inference · confidence 23 · 1 support, 1 refutation · warrant TENTATIVE)_ <!-- mem:${disputed.hash} -->`,
    );
    expect(md).toContain(`- [HYPOTHESIS] ${BACKUP.hypothesis}`);
    // A confirmed inference is still an inference: the section says it is confirmed, the label what it is.
    expect(md).toContain(`- [INFERENCE] ${BACKUP.claim}  _(inference · confidence 66`);
    expect(md).not.toContain('[UNCONFIRMED]');
    expect(md).not.toContain(unsupported.hash);
    expect(md.indexOf('## Disputed')).toBeLessThan(md.indexOf('## Confirmed'));
    expect(parsePersonaFile(md).map((l) => l.hash)).toEqual([disputed.hash, confirmed.hash, hypothesis.hash]);
  });

  it('an edited file read back becomes new inferences with confidence 0, never verification', async () => {
    const { memory, confirmed, disputed, hypothesis } = await scenario();
    const before = await Promise.all([confirmed.hash, disputed.hash, hypothesis.hash].map((h) => memory.show(h, SUITE_T)));
    const md = await memory.checkout({ at: SUITE_T });
    const edited = md
      .replace('[DISPUTED] [INFERENCE] The EU hosts', 'The EU hosts')
      .replace(`[HYPOTHESIS] ${BACKUP.hypothesis}`, `[CONFIRMED] ${BACKUP.hypothesis}, verified by the agent`)
      .concat('- The agent is sure the backup window never moves\n');
    const back = await memory.readBack(edited);
    // Dropping a label changes no statement; the edited hypothesis and the new line are new assertions.
    expect(back.unchanged).toBe(2);
    expect(back.asserted.map((a) => [a.text, a.class, a.confidence, a.source])).toEqual([
      [`${BACKUP.hypothesis}, verified by the agent`, 'inference', 0, 'memory.md'],
      ['The agent is sure the backup window never moves', 'inference', 0, 'memory.md'],
    ]);
    const view = await memory.evidenceStore.get(back.asserted[0]!.proposition_id);
    expect(view?.lineage).toEqual([{ from_id: back.asserted[0]!.proposition_id, to_id: `mem:${hypothesis.hash}`, kind: 'derived_from' }]);
    expect(view?.assertions[0]?.source.origin_type).toBe('derived');
    expect(view?.checks).toEqual([]);
    const after = await Promise.all([confirmed.hash, disputed.hash, hypothesis.hash].map((h) => memory.show(h, SUITE_T)));
    expect(after.map((s) => [s.confidence, s.view_id, s.warrant])).toEqual(before.map((s) => [s.confidence, s.view_id, s.warrant]));
  });

  it('labels each memory as the agent context does (one label table)', async () => {
    const { memory, confirmed, disputed, hypothesis } = await scenario();
    const md = await memory.checkout({ at: SUITE_T });
    const context = agentContextText(await agentContext(memory, { at: SUITE_T, limit: 50 }));
    const labelsIn = (text: string, hash: string) => {
      const line = text.split('\n').find((l) => l.includes(`mem:${hash}`));
      return line === undefined ? undefined : (/^- ((?:\[[A-Z ]+\] )*)/.exec(line)?.[1] ?? '').trim();
    };
    const shown = [confirmed.hash, disputed.hash, hypothesis.hash].map((h) => [labelsIn(md, h), labelsIn(context, h)]);
    expect(shown).toEqual([
      [MEMORY_LABELS.inference, MEMORY_LABELS.inference],
      [`${MEMORY_LABELS.disputed} ${MEMORY_LABELS.inference}`, `${MEMORY_LABELS.disputed} ${MEMORY_LABELS.inference}`],
      [MEMORY_LABELS.hypothesis, MEMORY_LABELS.hypothesis],
    ]);
  });
});
