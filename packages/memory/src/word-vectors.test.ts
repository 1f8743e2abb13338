import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { differentFacts, textFacts } from './fact-tokens.js';
import { loadWordVectors, readWordVectors } from './word-vectors.js';

describe('word vectors', () => {
  it('reads the shipped package once per process, most frequent words first, as unit vectors', async () => {
    const [a, b] = await Promise.all([loadWordVectors(1000), loadWordVectors(1000)]);
    expect(a).toBe(b);
    expect(a.size).toBe(1000);
    expect(a.rowOf('the')).toBe(0);
    const row = a.rowOf('time')!;
    expect(a.dot(row, row)).toBeCloseTo(1, 5);
    expect(a.rowOf('amoxicillin')).toBeUndefined();
  });

  it('parses escaped keys and stops at the end of the object', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-vectors-'));
    const file = join(dir, 'v.json');
    writeFileSync(file, '{"dimensions":2,"words":[],"vectors":{"a\\\\":[3,4,5,0],"\\"b":[-1e0,0,1,1],"c":[0.5,0.5,0.7,2]},"unkVector":[0,0,0,-1]}');
    const v = await readWordVectors(file, 10);
    expect(v.size).toBe(3);
    expect(v.rowOf('a\\')).toBe(0);
    expect(v.rowOf('"b')).toBe(1);
    expect(v.dot(0, 0)).toBeCloseTo(1, 6);
    expect(v.dot(0, 1)).toBeCloseTo(-0.6, 6);
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
