/**
 * The salience side file's lines: one JSON object per line, `{"h": <memory hash>, "r": <record>}`,
 * written by hand on the hot path and read back through a bounded buffer, every line checked. The
 * format of `JsonlSalienceStore` (salience-file.ts).
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { parseInstant } from '@ewp/core';
import { hashOfProposition, propositionOf } from './memory-records.js';
import { copyInto, copyOf, emptySalience, type SalienceRecord } from './salience-store.js';

/** One line of the side file, written out by hand: the hot path's serialization, a few times cheaper than `JSON.stringify`. */
export function lineOf(hash: string, r: SalienceRecord): string {
  if (!Number.isFinite(r.recall_count) || !Number.isFinite(r.energy) || !Number.isFinite(r.importance)) return `${JSON.stringify({ h: hash, r: copyOf(r) })}\n`;
  const text = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));
  return `{"h":${JSON.stringify(hash)},"r":{"recall_count":${r.recall_count},"energy":${r.energy},"importance":${r.importance},"last_recalled_at":${text(r.last_recalled_at)}}}\n`;
}

/**
 * Past this length (bytes, without its newline) a line of the side file is not a record: a record is a
 * memory hash and four short fields (under 200 bytes), so what is longer was not written by a store.
 * Bounds what one line costs to read, whatever the file holds.
 */
export const SALIENCE_LINE_MAX = 1024;
/**
 * The side file is rewritten once it holds more than twice as many lines as memories plus this many:
 * it stays within `2 × memories + 256` lines however many recalls it records, and a rewrite costs at most
 * one line per line appended since the last one.
 */
/** How each field of a line's record is checked (a field a line leaves out keeps its empty value; other keys are ignored). */
const FIELD_CHECKS: { readonly [K in keyof SalienceRecord]: (value: unknown) => boolean } = {
  recall_count: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  energy: (v) => typeof v === 'number' && Number.isFinite(v),
  importance: (v) => typeof v === 'number' && Number.isFinite(v),
  last_recalled_at: (v) => v === null || (typeof v === 'string' && v.length <= 64 && typeof parseInstant(v) !== 'string'),
};
const FIELD_NAMES = Object.keys(FIELD_CHECKS) as (keyof SalienceRecord)[];

/** Whether `hash` is a memory hash (the rule of memory-records: a memory's proposition names it). */
function isMemoryHash(hash: unknown): hash is string {
  return typeof hash === 'string' && hashOfProposition(propositionOf(hash)) === hash;
}

/** Whether `line` (ending in its newline), written for `hash`, reads back as a record. */
export function isRecordLine(hash: string, line: string): boolean {
  // Most lines are ASCII and far below the bound: the byte count is taken only near it.
  return isMemoryHash(hash) && (line.length <= SALIENCE_LINE_MAX / 3 || Buffer.byteLength(line) <= SALIENCE_LINE_MAX + 1);
}

/** The record a line of the side file holds, or why it holds none. */
function recordOfLine(line: Buffer): { hash: string; record: SalienceRecord } | string {
  if (!isUtf8(line)) return 'not UTF-8';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return 'not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'not an object';
  const { h, r } = parsed as { h?: unknown; r?: unknown };
  if (!isMemoryHash(h)) return '"h" is not a memory hash';
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return '"r" is not an object';
  const record = emptySalience();
  for (const name of FIELD_NAMES) {
    if (!Object.hasOwn(r, name)) continue;
    const value = (r as Record<string, unknown>)[name];
    if (!FIELD_CHECKS[name](value)) return `"r.${name}" is out of range`;
    (record as unknown as Record<string, unknown>)[name] = value;
  }
  return { hash: h, record };
}

/** What reading a side file found. */
export interface Replay {
  records: Map<string, SalienceRecord>;
  /** Lines in the file, read or not. */
  lines: number;
  skipped: number;
  /** The first skipped line: its number and why. */
  first: string | undefined;
  /** The last line has no newline (a write cut short, or one under way in another process). */
  torn: boolean;
}

/**
 * Read the side file at `path` line by line through one 64 KiB buffer (a file of any size costs the
 * records it holds, never the whole file as one string); a missing file holds nothing. A line that is
 * longer than {@link SALIENCE_LINE_MAX}, not UTF-8, not JSON or not a well-formed record is skipped and
 * counted; a last line without its newline is skipped silently when `tornIsExpected` (another process
 * may be writing it), else counted too. The last line of a memory wins.
 */
export function replay(path: string, tornIsExpected: boolean): Replay {
  const out: Replay = { records: new Map(), lines: 0, skipped: 0, first: undefined, torn: false };
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw error;
  }
  const take = (line: Buffer | undefined, terminated: boolean) => {
    out.lines += 1;
    if (line !== undefined && line.length === 0) return;
    const read = line === undefined ? `longer than ${SALIENCE_LINE_MAX} bytes` : recordOfLine(line);
    if (typeof read !== 'string') {
      const kept = out.records.get(read.hash);
      if (kept === undefined) out.records.set(read.hash, read.record);
      else copyInto(kept, read.record);
      return;
    }
    if (!terminated && tornIsExpected) return;
    out.skipped += 1;
    out.first ??= `line ${out.lines}: ${terminated ? read : `${read} (cut short)`}`;
  };
  try {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    // The line read so far across chunks (copies: the chunk is reused), or undefined once it is too long.
    let partial: Buffer[] | undefined = [];
    let partialLength = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const view = chunk.subarray(0, n);
      let start = 0;
      for (;;) {
        const newline = view.indexOf(0x0a, start);
        const piece = view.subarray(start, newline === -1 ? n : newline);
        if (partial !== undefined && partialLength + piece.length > SALIENCE_LINE_MAX) partial = undefined;
        if (newline === -1) {
          if (partial !== undefined && piece.length > 0) {
            partial.push(Buffer.from(piece));
            partialLength += piece.length;
          }
          break;
        }
        take(partial === undefined ? undefined : partialLength === 0 ? piece : Buffer.concat([...partial, piece]), true);
        partial = [];
        partialLength = 0;
        start = newline + 1;
      }
    }
    if (partial === undefined || partialLength > 0) {
      out.torn = true;
      take(partial === undefined ? undefined : Buffer.concat(partial), false);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}
