import { createHash } from 'node:crypto';

/**
 * A local, deterministic embedder (hashed character trigrams, L2-normalised) for running Mem0
 * offline: the same text always gives the same vector, and texts sharing words score higher.
 * It has the `embedQuery`/`embedDocuments` shape Mem0's `langchain` embedder provider accepts.
 */
export function deterministicEmbedder(dimension = 64): {
  /** The vector of one text. */
  embedQuery(text: string): Promise<number[]>;
  /** The vectors of several texts, in order. */
  embedDocuments(texts: string[]): Promise<number[][]>;
} {
  const embed = (text: string): number[] => {
    const v = new Array<number>(dimension).fill(0);
    const s = ` ${text.toLowerCase()} `;
    for (let i = 0; i + 3 <= s.length; i++) {
      const h = createHash('sha1')
        .update(s.slice(i, i + 3))
        .digest();
      v[h.readUInt32BE(0) % dimension]! += h[4]! & 1 ? 1 : -1;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  return {
    embedQuery: async (text) => embed(text),
    embedDocuments: async (texts) => texts.map(embed),
  };
}
