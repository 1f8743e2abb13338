/**
 * How a plain LangGraph item becomes evidence: one assertion per item content, from an
 * endogenous origin (`turn` or `extract`), one lineage per item path. Repeating an item never
 * corroborates it (same lineage), and nothing here can verify anything (no checks).
 */
import type { Assertion } from '@ewp/core';
import { sha256Hex } from '../ledger/sha256.js';
import { stableJson } from '../ledger/stable-json.js';

/** The endogenous origins an agent's own memory writes may claim. */
export type MemoryOrigin = 'turn' | 'extract';

/** `langgraph:` + the percent-encoded namespace labels and key: unambiguous and readable. */
export function itemLocator(namespace: string[], key: string): string {
  return `langgraph:${[...namespace, key].map(encodeURIComponent).join('/')}`;
}

/** The memory text of an item value: `text`, `content`, `memory` or `data` when a string, else its JSON. */
export function defaultItemText(value: Record<string, unknown>): string {
  for (const field of ['text', 'content', 'memory', 'data']) {
    const candidate = value[field];
    if (typeof candidate === 'string') return candidate;
  }
  return stableJson(value);
}

/** The proposition an item asserts: its `proposition_id` field when a non-empty string, else its locator. */
export function defaultItemProposition(namespace: string[], key: string, value: Record<string, unknown>): string {
  const declared = value.proposition_id;
  return typeof declared === 'string' && declared !== '' ? declared : itemLocator(namespace, key);
}

export interface ItemAssertionInput {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  propositionId: string;
  text: string;
  origin: MemoryOrigin;
  assertedBy: string;
  /** ISO time of the write. */
  at: string;
}

/**
 * The assertion recording one item write. Its id names the path, the content and the time, so
 * content that comes back later (A → B → A) is a new record, never a clash with the old one.
 */
export async function itemAssertion(input: ItemAssertionInput): Promise<Assertion> {
  const locator = itemLocator(input.namespace, input.key);
  const hash = await sha256Hex(stableJson(input.value));
  const sourceId = `${locator}@${hash.slice(0, 16)}@${input.at}`;
  return {
    assertion_id: `${sourceId}:a`,
    proposition_id: input.propositionId,
    text: input.text,
    asserted_by: input.assertedBy,
    assertion_confidence: 0.5,
    asserted_at: input.at,
    source: {
      source_id: sourceId,
      lineage_id: locator,
      origin_type: input.origin,
      origin_locator: locator,
      snapshot_id: hash.slice(0, 16),
      content_hash: `sha256:${hash}`,
      observed_at: input.at,
      extractor_id: input.origin === 'extract' ? input.assertedBy : null,
      parent_source_id: null,
    },
  };
}
