import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseJson } from '@ewp/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Item, readLines, readViews } from './view-file.js';

/** `text` as stdin, cut into byte chunks at `cuts` (so characters, strings and escapes straddle reads). */
function chunked(text: string, cuts: readonly number[] = []): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    if (p > from) chunks.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  if (from < bytes.length) chunks.push(bytes.subarray(from));
  return Readable.from(chunks, { objectMode: false });
}

async function read(text: string, cuts: readonly number[] = []): Promise<Item[]> {
  const items: Item[] = [];
  for await (const batch of readViews('-', '/', chunked(text, cuts))) items.push(...batch);
  return items;
}

const every = (text: string) => Array.from({ length: Buffer.byteLength(text) }, (_, i) => i);
const view = (i: number) => ({ proposition_id: `P-${i}`, view_id: 'v1', note: `a "quoted" \\ back\\slash, ünï ${'😀'} [${i}] {}` });

describe('readViews: the forms of a view file, read as a stream', () => {
  it('hands out views in bounded batches, numbered across them, from one read of many views', async () => {
    const n = 1000;
    const lines = Array.from({ length: n }, (_, i) => (i === 300 || i === 999 ? '{"bad": 1 ]' : JSON.stringify(view(i))));
    for (const text of [lines.join('\n'), `[${lines.join(',')}]`]) {
      const batches: Item[][] = [];
      for await (const batch of readViews('-', '/', chunked(text))) batches.push(batch);
      expect(batches.length).toBeGreaterThan(1);
      for (const b of batches) expect(b.length).toBeLessThanOrEqual(256);
      const items = batches.flat();
      expect(items.map((i) => i.label)).toEqual(Array.from({ length: n }, (_, i) => `-[${i}]`));
      expect(items.filter((i) => i.error !== undefined).map((i) => i.label)).toEqual(['-[300]', '-[999]']);
      expect(items[299]?.value).toEqual(view(299));
      expect(items[301]?.value).toEqual(view(301));
    }
  });

  it('splits a list into its elements even when every byte arrives alone', async () => {
    const views = [view(0), view(1), [1, [2, { a: ']' }]], 'x,y', null];
    const text = ` [ ${views.map((v) => JSON.stringify(v, null, 1)).join(' ,\r\n')} ] \n`;
    const items = await read(text, every(text));
    expect(items.map((i) => i.label)).toEqual(['-[0]', '-[1]', '-[2]', '-[3]', '-[4]']);
    expect(items.map((i) => i.value)).toEqual(views);
  });

  it('streams {"views": [...]} and checks what follows the list', async () => {
    const text = JSON.stringify({ views: [view(0), view(1)], note: 'x' });
    expect((await read(text, [3, 9, 20, 41])).map((i) => i.value)).toEqual([view(0), view(1)]);
    const twice = `{"views": [${JSON.stringify(view(0))}], "views": []}`;
    const items = await read(twice);
    expect(items.at(-1)?.error).toMatchObject({ code: 'DUPLICATE_KEY', path: '$.views' });
    expect((await read('{"views": [], "x": }')).at(-1)?.error?.code).toBe('JSON_SYNTAX');
  });

  it('refuses a bad element alone, and names an unclosed list or extra data', async () => {
    const items = await read(`[${JSON.stringify(view(0))}, {"a": 1,,}, , ${JSON.stringify(view(2))}]`);
    expect(items.map((i) => [i.label, i.error?.code])).toEqual([
      ['-[0]', undefined],
      ['-[1]', 'JSON_SYNTAX'],
      ['-[2]', 'JSON_SYNTAX'],
      ['-[3]', undefined],
    ]);
    expect(await read('[]')).toEqual([]);
    expect((await read('[1,]')).map((i) => i.error?.code)).toEqual([undefined, 'JSON_SYNTAX']);
    expect((await read(`[${JSON.stringify(view(0))}, {"a": "unclosed`)).map((i) => [i.label, i.error?.code])).toEqual([
      ['-[0]', undefined],
      ['-[1]', 'JSON_SYNTAX'],
      ['-', 'JSON_SYNTAX'],
    ]);
    expect((await read('[1] [2]')).at(-1)).toMatchObject({ label: '-', error: { code: 'JSON_SYNTAX' } });
  });

  it('reads one view, pretty-printed or not, and a wrapper whose first key is not "views"', async () => {
    const pretty = JSON.stringify(view(7), null, 2);
    expect(
      await read(
        pretty,
        every(pretty).filter((i) => i % 7 === 0),
      ),
    ).toEqual([{ label: '-[0]', value: view(7), only: true }]);
    expect(await read(`${JSON.stringify(view(7))}\n\n`)).toEqual([{ label: '-[0]', value: view(7), only: true }]);
    expect((await read(JSON.stringify({ note: 1, views: [view(1)] }, null, 2))).map((i) => i.value)).toEqual([view(1)]);
    expect(await read('{"note": 1, "views": 5}')).toEqual([{ label: '-', error: { code: 'NOT_A_VIEW_LIST', path: '$.views', message: expect.any(String) } }]);
    expect(await read('')).toMatchObject([{ label: '-', error: { code: 'JSON_SYNTAX' } }]);
    expect(await read('"text"')).toMatchObject([{ label: '-', error: { code: 'NOT_A_VIEW' } }]);
  });

  it('reads JSONL line by line: blank lines skipped, a bad line (even the first) one refused view', async () => {
    const good = `${JSON.stringify(view(0))}\r\n\n{not json\n${JSON.stringify(view(3))}`;
    expect((await read(good, [5, 60])).map((i) => [i.label, i.error?.code ?? (i.value as { proposition_id: string }).proposition_id])).toEqual([
      ['-[0]', 'P-0'],
      ['-[1]', 'JSON_SYNTAX'],
      ['-[2]', 'P-3'],
    ]);
    const badFirst = `{"a": [1}\n${JSON.stringify(view(1))}\n`;
    expect((await read(badFirst)).map((i) => [i.label, i.error?.code])).toEqual([
      ['-[0]', 'JSON_SYNTAX'],
      ['-[1]', undefined],
    ]);
  });

  it('reads a regular file by path (synchronous 64 KiB reads) exactly as the same bytes from a stream, with a character cut by a read boundary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-view-file-'));
    try {
      const views = Array.from({ length: 3_000 }, (_, i) => view(i));
      for (const [form, body] of [
        ['jsonl', views.map((v) => JSON.stringify(v)).join('\n')],
        ['list', JSON.stringify(views, null, 1)],
        ['wrapper', JSON.stringify({ views })],
      ] as const) {
        // Pad the front until a 64 KiB read boundary falls inside a multi-byte character.
        let text = body;
        for (let pad = 0; Buffer.from(text)[65_536]! >> 6 !== 0b10; pad++) text = ' '.repeat(pad + 1) + body;
        const file = join(dir, `views.${form}`);
        writeFileSync(file, text);
        const fromFile: Item[] = [];
        for await (const batch of readViews(file, '/', chunked(''))) fromFile.push(...batch);
        const fromStream = (await read(text)).map((item) => ({ ...item, label: item.label.replace('-', file) }));
        expect(fromFile, form).toEqual(fromStream);
        expect(fromFile, form).toHaveLength(3_000);
        expect(fromFile[2_999]?.value, form).toEqual(views[2_999]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names an unreadable file', async () => {
    const items: Item[] = [];
    for await (const batch of readViews('missing.json', '/nonexistent-dir', chunked(''))) items.push(...batch);
    expect(items).toMatchObject([{ label: 'missing.json', error: { code: 'UNREADABLE_FILE' } }]);
  });

  it('gives each element of any list of JSON values the value parseJson gives it in the whole text, wherever the reads are cut', async () => {
    const element = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
    await fc.assert(
      fc.asyncProperty(
        fc.array(element, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom('', ' ', '\n', ' \r\n '),
        async (texts, cuts, ws) => {
          const text = `${ws}[${ws}${texts.join(`${ws},${ws}`)}${ws}]${ws}`;
          const items = await read(text, cuts);
          expect(items.map((i) => i.value)).toEqual(parseJson(text) as unknown[]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readLines', () => {
  it('joins a line split across reads and a character split across reads', async () => {
    const text = 'añb😀\r\nsecond line\n\nlast';
    const lines: string[] = [];
    for await (const batch of readLines(chunked(text, every(text)))) lines.push(...batch);
    expect(lines).toEqual(['añb😀', 'second line', '', 'last']);
  });
});
