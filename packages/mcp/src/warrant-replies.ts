/**
 * Finished `ewp_warrant_now` results of stored snapshots, kept per proposition (and view id) and warrant
 * piece: a call whose T falls inside a kept piece, while the ledger's revision is the one the piece and
 * its text were computed under, is answered by splicing T into the kept text, without running the tool.
 *
 * Why the spliced text is the tool's answer, byte for byte:
 * - The text was written by the tool's own road (`resultText`) for arguments of the same shape, the same
 *   `proposition_id` (and `view_id`), only `evaluated_at` differing. The tool checks each argument on its
 *   own, so those it accepted then it accepts now; T is checked here as the tool checks it
 *   (`parseEvaluatedAt`, through the table), and only a T it accepts reaches the kept text.
 * - The text belongs to a piece of the store's {@link WarrantTable} computed under the revision read
 *   before the text was (`keptPiece`): for every T' in the piece, `warrantNow` gives the same WarrantView
 *   but for `evaluated_at`, which the result echoes from the argument. So the result at T' is the kept
 *   text with the literal of T replaced, in the tool text and in `structuredContent`.
 * - It answers only while the ledger's revision (read once per run to completion, as the table and the
 *   result cache read it) equals that revision: equal revisions read in turn mean nothing was committed
 *   since, by any process, so a read would return the rows the piece was computed from, which passed the
 *   digest and identity checks of the store read then. Any commit moves the revision and the next call
 *   runs the tool.
 *
 * Bounded by bytes (least recently used first), one instance per store, shared by every server over it.
 */
import { parseEvaluatedAt, type Instant, pieceContains, type WarrantPiece } from '@ewp/core';
import { type EvidenceStore, TurnRevision } from '@ewp/ledger';
import { WarrantTable, warrantTableFor } from '@ewp/tools';
import { stringLiteral } from './stable-json.js';

/** Bytes of kept texts per store by default: a 10,000-proposition ledger's warrant replies (about 1.7 KB each) fit. */
export const MAX_WARRANT_REPLY_BYTES = 32 * 1024 * 1024;

/** Bytes an entry is counted at beyond its texts (entry, map slot, key, string headers). */
const ENTRY_OVERHEAD_BYTES = 160;

/** Longest T taken here; a longer one (no instant is) goes to the tool, which refuses it. */
const MAX_T_CHARS = 64;

/** The tool text's member (inside the result's JSON string literal) and the structured member, before T's literal. */
const TEXT_MEMBER = '\\"evaluated_at\\": ';
const STRUCTURED_MEMBER = '"evaluated_at":';

/** A stored-snapshot call, as read from its arguments. */
export interface StoredWarrantCall {
  propositionId: string;
  viewId: string | undefined;
  evaluatedAt: string;
}

/**
 * The arguments of `ewp_warrant_now` when they ask for a stored snapshot in the plainest form: exactly
 * `proposition_id` and `evaluated_at` (and `view_id`), each a non-empty string. Anything else (an inline
 * view, a policy field, numbers) is left to the tool.
 */
export function storedWarrantCall(args: Record<string, unknown> | undefined): StoredWarrantCall | undefined {
  if (args === undefined) return undefined;
  let propositionId: unknown;
  let viewId: unknown;
  let evaluatedAt: unknown;
  for (const key in args) {
    if (!Object.hasOwn(args, key)) return undefined;
    if (key === 'proposition_id') propositionId = args[key];
    else if (key === 'evaluated_at') evaluatedAt = args[key];
    else if (key === 'view_id') {
      viewId = args[key];
      if (typeof viewId !== 'string' || viewId === '') return undefined;
    } else return undefined;
  }
  if (typeof propositionId !== 'string' || propositionId === '') return undefined;
  if (typeof evaluatedAt !== 'string' || evaluatedAt === '' || evaluatedAt.length > MAX_T_CHARS) return undefined;
  return { propositionId, viewId: viewId as string | undefined, evaluatedAt };
}

/** The result text of one piece, cut around T's two literals: `head` + literal in the text + `middle` + JSON literal + `tail`. */
interface PieceText {
  piece: WarrantPiece;
  head: string;
  middle: string;
  tail: string;
  bytes: number;
}

interface Entry {
  /** The revision read before the texts were computed (their pieces' too). */
  revision: string;
  /** Most recently used first; at most `WarrantTable.PIECES_PER_PROPOSITION`. */
  texts: PieceText[];
  /** Bytes of the texts and the key. */
  bytes: number;
}

/** A T's parse and its two literals, kept for the last T seen (a client asks at one T many times in a row). */
interface ParsedT {
  text: string;
  /** `undefined`: not an instant (the tool refuses it). */
  instant: Instant | undefined;
  /** As it appears inside the tool text's literal. */
  inText: string;
  /** As it appears in `structuredContent`. */
  inStructured: string;
}

/** Bytes a string takes in V8's heap: one a character when every character is Latin-1, else two. */
function heapBytes(s: string): number {
  return /[^\u0000-\u00ff]/.test(s) ? 2 * s.length : s.length;
}

/** Where `part` is in `text` when it is there exactly once; else -1. */
function onlyOne(text: string, part: string): number {
  const at = text.indexOf(part);
  return at === -1 || text.indexOf(part, at + 1) !== -1 ? -1 : at;
}

/** See the module's comment. */
export class WarrantReplies {
  /** Latest snapshots by proposition id, and snapshots asked for by view id; least recently used first. */
  private readonly latest = new Map<string, Entry>();
  private readonly exact = new Map<string, Entry>();
  private bytes = 0;
  private lastT: ParsedT | undefined;
  private readonly table: WarrantTable;
  private readonly revisions: TurnRevision;
  private readonly maxBytes: number;
  /** Calls answered from a kept text, and calls handed to the tool (for tests and benches). */
  hits = 0;
  misses = 0;

  constructor(table: WarrantTable, revision: () => Promise<string>, maxBytes = MAX_WARRANT_REPLY_BYTES) {
    this.table = table;
    this.revisions = new TurnRevision(revision);
    this.maxBytes = maxBytes;
  }

  /** The replies of `store` (one per store, as its warrant table), or undefined when it has no revision. */
  static of(store: EvidenceStore): WarrantReplies | undefined {
    if (typeof store.revision !== 'function') return undefined;
    let replies = PER_STORE.get(store);
    if (replies === undefined) {
      replies = new WarrantReplies(warrantTableFor(store), () => (store.revision as () => Promise<string>).call(store));
      PER_STORE.set(store, replies);
    }
    return replies;
  }

  /** Bytes kept now (at most the budget). */
  get keptBytes(): number {
    return this.bytes;
  }

  /** Texts kept now. */
  get size(): number {
    return this.latest.size + this.exact.size;
  }

  /**
   * The result text of `call`: spliced from a kept text when one answers it (see the module's comment),
   * else `compute()`'s, which is then kept with its piece when the table holds it under the revision
   * read before. Rejects as `compute` rejects.
   */
  async text(call: StoredWarrantCall, compute: () => Promise<string>): Promise<string> {
    const revision = await this.revisions.current();
    if (revision === undefined) return compute();
    const map = call.viewId === undefined ? this.latest : this.exact;
    const key = call.viewId === undefined ? call.propositionId : WarrantTable.viewKey(call.propositionId, call.viewId);
    const kept = map.get(key);
    const t = this.parse(call.evaluatedAt);
    if (kept !== undefined && kept.revision === revision && t.instant !== undefined) {
      const texts = kept.texts;
      for (let i = 0; i < texts.length; i += 1) {
        const p = texts[i] as PieceText;
        if (!pieceContains(p.piece, t.instant)) continue;
        this.hits += 1;
        if (i > 0) {
          texts.splice(i, 1);
          texts.unshift(p);
        }
        map.delete(key);
        map.set(key, kept);
        return p.head + t.inText + p.middle + t.inStructured + p.tail;
      }
    }
    this.misses += 1;
    const text = await compute();
    if (t.instant !== undefined) this.keep(map, key, call, revision, t, text);
    return text;
  }

  private keep(map: Map<string, Entry>, key: string, call: StoredWarrantCall, revision: string, t: ParsedT, text: string): void {
    const piece = this.table.keptPiece(call.propositionId, call.viewId, call.evaluatedAt, revision);
    if (piece === undefined) return;
    // T's literal appears once in the tool text and once in `structuredContent`, each as the `evaluated_at`
    // member (a refusal has neither): found any other way (another member holding the same text), nothing is kept.
    const a = onlyOne(text, t.inText) - TEXT_MEMBER.length;
    const b = onlyOne(text, t.inStructured) - STRUCTURED_MEMBER.length;
    if (a < 0 || b <= a || !text.startsWith(TEXT_MEMBER, a) || !text.startsWith(STRUCTURED_MEMBER, b)) return;
    const head = text.slice(0, a + TEXT_MEMBER.length);
    const middle = text.slice(a + TEXT_MEMBER.length + t.inText.length, b + STRUCTURED_MEMBER.length);
    const tail = text.slice(b + STRUCTURED_MEMBER.length + t.inStructured.length);
    const added: PieceText = { piece, head, middle, tail, bytes: heapBytes(text) + ENTRY_OVERHEAD_BYTES };
    if (added.bytes + 2 * key.length > this.maxBytes) return;
    let entry = map.get(key);
    if (entry !== undefined && entry.revision !== revision) {
      this.drop(map, key, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = { revision, texts: [], bytes: 2 * key.length };
      this.bytes += entry.bytes;
    }
    // A text of the same piece (two calls computed at once) is replaced, not kept twice.
    const same = entry.texts.findIndex((p) => p.piece === piece);
    if (same !== -1) this.dropText(entry, same);
    entry.texts.unshift(added);
    entry.bytes += added.bytes;
    this.bytes += added.bytes;
    if (entry.texts.length > WarrantTable.PIECES_PER_PROPOSITION) this.dropText(entry, WarrantTable.PIECES_PER_PROPOSITION);
    map.delete(key);
    map.set(key, entry);
    while (this.bytes > this.maxBytes) {
      // The least recently used of this map goes first; the other's once only the new entry is left here.
      const from = map.size > 1 ? map : map === this.latest ? this.exact : this.latest;
      const oldest = from.keys().next();
      if (oldest.done === true) break;
      this.drop(from, oldest.value, from.get(oldest.value) as Entry);
    }
  }

  private dropText(entry: Entry, index: number): void {
    const [gone] = entry.texts.splice(index, 1);
    if (gone === undefined) return;
    entry.bytes -= gone.bytes;
    this.bytes -= gone.bytes;
  }

  private drop(map: Map<string, Entry>, key: string, entry: Entry): void {
    map.delete(key);
    this.bytes -= entry.bytes;
  }

  private parse(text: string): ParsedT {
    const last = this.lastT;
    if (last !== undefined && last.text === text) return last;
    let instant: Instant | undefined;
    try {
      instant = parseEvaluatedAt(text);
    } catch {
      instant = undefined;
    }
    const literal = JSON.stringify(text);
    const parsed: ParsedT = { text, instant, inText: stringLiteral(text), inStructured: literal };
    this.lastT = parsed;
    return parsed;
  }
}

const PER_STORE = new WeakMap<EvidenceStore, WarrantReplies>();
