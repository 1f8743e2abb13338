/** The inspector's salience reader: read-only over a file a writer holds, unreadable lines skipped with one warning. */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptySalience, JsonlSalienceStore } from '@ewp/memory';
import { afterAll, describe, expect, it } from 'vitest';
import { SalienceFileReader } from '../src/salience-file.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-inspect-salience-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const H = (n: number) => n.toString(16).padStart(32, '0');

describe('SalienceFileReader', () => {
  it('skips unreadable lines with one warning however often it reads, and never writes the file nor takes its lock', () => {
    const path = join(dir, 'corrupt.jsonl');
    writeFileSync(path, `{"h":"${H(1)}","r":{"recall_count":3}}\nnull\n{"h":"${H(2)}","r":{"recall_count":"x"}}\n`);
    appendFileSync(path, Buffer.from([0xff, 0xfe, 0x0a]));
    const seen: string[] = [];
    const reader = new SalienceFileReader(path, { onWarning: (m) => seen.push(m) });
    expect(reader.get(H(1))).toMatchObject({ recall_count: 3 });
    expect(reader.get(H(2))).toBeUndefined();
    appendFileSync(path, `{"h":"${H(2)}","r":{"recall_count":5}}\n{bad\n`);
    expect(reader.get(H(2))).toMatchObject({ recall_count: 5 });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^skipped 3 unreadable lines of .*corrupt\.jsonl \(line 2: not an object\); salience is advisory$/);
    expect(readFileSync(path, 'utf8')).toContain('{bad');
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(() => reader.set()).toThrow(/never writes/);
    reader.close();
  });

  it("follows a writer that holds the file, through its rewrites, while the writer keeps the file's lock", () => {
    const path = join(dir, 'held.jsonl');
    const writer = new JsonlSalienceStore(path);
    expect(writer.owner).toBe(true);
    const reader = new SalienceFileReader(path);
    for (let round = 1; round <= 5; round += 1) {
      // Enough changes of 10 memories between reads that the writer rewrites the file.
      for (let i = 0; i < 300; i += 1) {
        writer.set(H(i % 10), { ...emptySalience(), recall_count: round * 1000 + i });
        if (i % 10 === 9) writer.flush();
      }
      expect(reader.get(H(9))).toMatchObject({ recall_count: round * 1000 + 299 });
      expect(writer.owner).toBe(true);
    }
    expect(readFileSync(path, 'utf8').split('\n').length - 1).toBeLessThanOrEqual(2 * 10 + 256);
    reader.close();
    writer.close();
  });
});
