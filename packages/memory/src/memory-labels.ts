/**
 * The labels a memory carries in front of its text wherever the layer writes it for a model or a
 * person: the agent context (`agentContextText`, every binding's prompt) and the persona file
 * (`MEMORY.md`). One table, so "disputed", "hypothesis" and "inference" read the same in every place.
 *
 * A class label names what the memory is ([HYPOTHESIS] to be checked, [INFERENCE] a conclusion drawn,
 * not observed), and stays true whatever the evidence later does; whether it is confirmed is said by
 * the part or section it stands in and by its confidence, never by the label. [DISPUTED] is the one
 * state label: something refutes it, or its warrant shows an open conflict.
 */
import type { EpistemicClass } from './epistemic-class.js';

/** The label of a disputed memory and of each claim class that needs one (observations and evidence carry none). */
export const MEMORY_LABELS = {
  disputed: '[DISPUTED]',
  hypothesis: '[HYPOTHESIS]',
  inference: '[INFERENCE]',
} as const satisfies { disputed: string } & Partial<Record<EpistemicClass, string>>;

/** The labels a memory carries in front of its text, in order: disputed first, then its class's. */
export function contextRowLabels(row: { class: EpistemicClass; disputed: boolean }): string[] {
  const labels: string[] = [];
  if (row.disputed) labels.push(MEMORY_LABELS.disputed);
  const byClass: Partial<Record<EpistemicClass, string>> = MEMORY_LABELS;
  const label = byClass[row.class];
  if (label !== undefined) labels.push(label);
  return labels;
}
