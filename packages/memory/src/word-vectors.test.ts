import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryError } from './errors.js';
import { differentFacts, textFacts } from './fact-tokens.js';
import { DEFAULT_VOCABULARY, loadWordVectors, readWordVectors, wordVectorFile } from './word-vectors.js';

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'distill-word-vectors.mjs');

function distil(args: string[]): void {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

describe('word vectors', () => {
  it('reads the shipped file once per process, most frequent words first, as unit vectors', async () => {
    const [a, b] = await Promise.all([loadWordVectors(1000), loadWordVectors(1000)]);
    expect(a).toBe(b);
    expect(a.size).toBe(1000);
    expect(a.rowOf('the')).toBe(0);
    const row = a.rowOf('time')!;
    expect(a.dot(row, row)).toBeCloseTo(1, 5);
    expect(a.rowOf('amoxicillin')).toBeUndefined();
    const all = await loadWordVectors();
    expect(all.size).toBe(DEFAULT_VOCABULARY);
    // A larger vocabulary than the file holds gives what it holds.
    expect((await loadWordVectors(DEFAULT_VOCABULARY + 1)).size).toBe(DEFAULT_VOCABULARY);
  });

  it('holds the words the fact rules and the synonym check lean on', async () => {
    const v = await loadWordVectors();
    for (const w of ['not', 'no', 'never', 'before', 'after', 'first', 'last', 'grew', 'fell', 'one', 'six', 'hour', 'starts', 'begins', 'tuesday']) {
      expect(v.rowOf(w), w).toBeDefined();
    }
    const cos = (x: string, y: string) => v.dot(v.rowOf(x)!, v.rowOf(y)!);
    expect(cos('starts', 'begins')).toBeGreaterThan(cos('starts', 'tuesday'));
  });

  it('refuses a vocabulary that is not a positive integer, naming it', async () => {
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      const e = await loadWordVectors(bad).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MemoryError);
      expect((e as MemoryError).code).toBe('EWP_REFUSE_MEMORY_INPUT');
      expect((e as MemoryError).path).toBe('vocabulary');
    }
  });

  it('the committed file is what the script distils from the source package (same bytes)', { timeout: 120_000 }, () => {
    const out = join(mkdtempSync(join(tmpdir(), 'ewp-vectors-')), 'word-vectors.bin');
    distil(['--out', out]);
    expect(readFileSync(out).equals(readFileSync(join(import.meta.dirname, '..', 'assets', 'word-vectors.bin')))).toBe(true);
  });

  it('the script keeps escaped keys and directions, skips repeats and zero vectors, and stops at --words', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-vectors-'));
    const source = join(dir, 'v.json');
    writeFileSync(
      source,
      '{"dimensions":2,"words":[],"vectors":{"a\\\\":[3,4,5,0],"\\"b":[-1e0,0,1,1],"a\\\\":[1,0,1,2],"z":[0,0,0,3],"c":[0.5,0.5,0.7,4],"d":[1,1,1.4,5]},"unkVector":[0,0,0,-1]}',
    );
    const out = join(dir, 'v.bin');
    distil(['--source', source, '--out', out, '--words', '3']);
    const v = await readWordVectors(out, 10);
    expect(v.size).toBe(3);
    expect(v.rowOf('a\\')).toBe(0);
    expect(v.rowOf('"b')).toBe(1);
    expect(v.rowOf('c')).toBe(2);
    expect(v.rowOf('z')).toBeUndefined();
    expect(v.rowOf('d')).toBeUndefined();
    expect(v.dot(0, 0)).toBeCloseTo(1, 6);
    // int8 directions: the cosine of (3,4) and (-1,0) is -0.6 to within rounding.
    expect(Math.abs(v.dot(0, 1) + 0.6)).toBeLessThan(0.01);
    expect((await readWordVectors(out, 2)).size).toBe(2);
  });

  it('refuses a file that is not a word-vector file, or is cut short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-vectors-'));
    const shipped = readFileSync(await wordVectorFile());
    const cut = join(dir, 'cut.bin');
    writeFileSync(cut, shipped.subarray(0, shipped.length - 1));
    await expect(readWordVectors(cut)).rejects.toThrow(/not a word-vector file/);
    const other = join(dir, 'other.bin');
    writeFileSync(other, Buffer.concat([Buffer.from('JUNK'), shipped.subarray(4)]));
    await expect(readWordVectors(other)).rejects.toThrow(/no EWPV header/);
  });
});

describe('different facts', () => {
  const differ = (a: string, b: string) => differentFacts(textFacts(a), textFacts(b));
  it.each([
    ['The backup starts at 06:00', 'The backup starts at 07:00'],
    ['Disk usage on db-07 is high', 'Disk usage on db-08 is high'],
    ['The dose is 50 mg', 'The dose is 50 g'],
    ['The job failed', 'The job did not fail'],
    ['Revenue grew last year', 'Revenue fell last year'],
    ['The review moved to Thursday', 'The review moved to Tuesday'],
    ['The nurse checks his sugar before every meal', 'The nurse checks his sugar after every meal'],
    ['Invoices go out on the first working day', 'Invoices go out on the last working day'],
  ])('%s / %s: two facts', (a, b) => expect(differ(a, b)).toBe(true));
  it.each([
    ['The backup starts at 06:00', 'At six the backup starts'],
    ['The call moved by one hour', 'The call moved by an hour'],
    ['The office is closed on Mondays', 'On Mondays the office does not open'],
    ['The MRI showed no sign of a fracture', 'No fracture was visible on the MRI'],
    ['The endpoint returns at most 50 results', 'No more than 50 results come back from the endpoint'],
    ['The disk has 5 GB free', 'Five gigabytes are free on the disk'],
  ])('%s / %s: one fact', (a, b) => expect(differ(a, b)).toBe(false));
});
