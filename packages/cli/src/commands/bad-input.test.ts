/**
 * Bad bytes, oversized input and a reader that goes away, through every verb that reads view files:
 * a typed one-line refusal and a non-zero exit, never a replacement character or silent partial work.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { evalCommand } from './eval.js';
import { ingestCommand } from './ingest.js';
import { receiptCommand } from './receipt.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const T = '2026-09-23T12:00:00Z';
let n = 0;

const viewJson = (id: string, text: string) =>
  JSON.stringify({
    proposition_id: id,
    view_id: 'v1',
    evaluated_at: T,
    assertions: [
      {
        assertion_id: 'a1',
        proposition_id: id,
        text,
        asserted_by: 'agent',
        assertion_confidence: 0.5,
        asserted_at: '2026-01-01T00:00:00Z',
        source: {
          source_id: 's',
          lineage_id: 'L',
          origin_type: 'extract',
          origin_locator: 'l',
          snapshot_id: 's',
          content_hash: 'h',
          observed_at: '2026-01-01T00:00:00Z',
        },
      },
    ],
  });

/** The view file with the text `MARK` replaced by one raw byte. */
function withByte(name: string, byte: number): string {
  const [head, tail] = viewJson('P-bytes', 'MARK').split('MARK') as [string, string];
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat([Buffer.from(head), Buffer.from([byte]), Buffer.from(tail)]));
  return file;
}
const offsetOfMark = viewJson('P-bytes', 'MARK').indexOf('MARK');

const run = (verb: typeof ingestCommand, args: string[], stdin?: string | Buffer) =>
  runCaptured((io) => verb(args, io), { cwd: dir, ...(stdin === undefined ? {} : { stdin }) });

describe('bytes that are not UTF-8', () => {
  const ff = withByte('ff.json', 0xff);
  const fe = withByte('fe.json', 0xfe);

  it('ingest refuses the file with INVALID_UTF8 and the byte offset, stores nothing of it, exits 2', async () => {
    const db = `u${++n}.sqlite`;
    for (const file of [ff, fe]) {
      const r = await run(ingestCommand, [file, '--db', db, '--evaluated-at', T]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`INVALID_UTF8: the input is not UTF-8: byte 0x${file === ff ? 'ff' : 'fe'} at byte offset ${offsetOfMark}`);
      expect(r.stdout).not.toContain('stored');
      expect(r.stdout).not.toContain('\uFFFD');
    }
  });

  it('ingest of JSONL stores the lines before the bad byte, refuses the rest, and says so (exit 2)', async () => {
    const file = join(dir, 'mixed.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from(`${viewJson('P-ok', 'fine')}\n`), readFileSync(ff), Buffer.from(`\n${viewJson('P-after', 'x')}\n`)]));
    const db = `u${++n}.sqlite`;
    const r = await run(ingestCommand, [file, '--db', db, '--evaluated-at', T]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/FAIL \S+mixed\.jsonl: INVALID_UTF8: .* at byte offset \d+/);
    const store = new SqliteEvidenceStore(join(dir, db), { readOnly: true });
    expect((await store.listPropositions()).map((p) => p.proposition_id)).toEqual(['P-ok']);
    await store.close();
  });

  it('eval refuses a file, and eval --jsonl its stdin, with INVALID_UTF8 (exit 2)', async () => {
    const file = await run(evalCommand, [ff]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('refused [INVALID_UTF8]');
    const lines = await run(
      evalCommand,
      ['--jsonl'],
      Buffer.concat([Buffer.from(`{"view":${viewJson('P-1', 'a')}}\n{"view":`), readFileSync(fe), Buffer.from('}\n')]),
    );
    expect(lines.code).toBe(2);
    expect(lines.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(lines.stderr).toMatch(/^ewp eval: stdin: refused \[INVALID_UTF8\] the input is not UTF-8: byte 0xfe at byte offset \d+\n$/);
  });

  it('a receipt is never BOUND to other bytes: the view of \\xff and of \\xfe are both refused', async () => {
    writeFileSync(join(dir, 'good.json'), viewJson('P-bytes', '\u00ff'));
    expect((await run(receiptCommand, ['issue', 'good.json', '--out', 'r.json'])).code).toBe(0);
    expect(JSON.parse((await run(receiptCommand, ['verify', 'r.json', 'good.json'])).stdout)).toMatchObject({ status: 'BOUND' });
    for (const file of [ff, fe]) {
      const verify = await run(receiptCommand, ['verify', 'r.json', file]);
      expect(verify.code).toBe(2);
      expect(verify.stdout).not.toContain('BOUND');
      expect(verify.stderr).toMatch(/refused \(INVALID_UTF8\): .*byte offset \d+/);
      expect((await run(receiptCommand, ['issue', file])).code).toBe(2);
    }
    const fromStdin = await run(receiptCommand, ['verify', 'r.json', '-'], readFileSync(ff));
    expect(fromStdin.code).toBe(2);
  });
});

describe('size limits', () => {
  it('eval --jsonl refuses a line over --max-view-bytes in one line (exit 2)', async () => {
    const r = await run(evalCommand, ['--jsonl', '--max-view-bytes', '1KiB'], `{"view":${viewJson('P-1', 'x'.repeat(2000))}}\n`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ewp eval: stdin: refused \[INPUT_TOO_LARGE\] a line, list element or document longer than 1 KiB \(--max-view-bytes\)/);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('ingest refuses a list element or a document over the limit, and a bad size argument', async () => {
    writeFileSync(join(dir, 'list.json'), `[${viewJson('P-1', 'a')},${viewJson('P-2', 'x'.repeat(5000))}]`);
    const list = await run(ingestCommand, ['list.json', '--db', `s${++n}.sqlite`, '--max-view-bytes', '4KiB', '--evaluated-at', T]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('INPUT_TOO_LARGE');
    expect(list.stdout).toContain('stored P-1');
    writeFileSync(join(dir, 'doc.json'), JSON.stringify(JSON.parse(viewJson('P-3', 'y'.repeat(5000))), null, 2));
    const doc = await run(ingestCommand, ['doc.json', '--db', `s${++n}.sqlite`, '--max-view-bytes', '4096']);
    expect(doc.code).toBe(2);
    expect(doc.stderr).toContain('INPUT_TOO_LARGE');
    expect((await run(ingestCommand, ['doc.json', '--db', 'x.sqlite', '--max-view-bytes', 'lots'])).code).toBe(2);
  });

  it.skipIf(process.platform !== 'linux')('ewp eval /dev/zero stops at the limit with one line (the built binary)', async () => {
    const child = spawn(process.execPath, [BIN, 'eval', '/dev/zero', '--max-view-bytes', '8MiB'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const [code] = await once(child, 'close');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ewp eval: \/dev\/zero: refused \[INPUT_TOO_LARGE\] .*longer than 8 MiB/);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});

describe('a reader that goes away', () => {
  const jsonl = join(dir, 'many.jsonl');
  writeFileSync(jsonl, `${Array.from({ length: 3000 }, (_, i) => viewJson(`P-${i}`, 't')).join('\n')}\n`);

  it('ingest | (reader closes after the first line): every view is stored, stderr says so, exit 2', async () => {
    const db = join(dir, `pipe${++n}.sqlite`);
    const child = spawn(process.execPath, [BIN, 'ingest', jsonl, '--db', db, '--evaluated-at', T, '--batch', '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    // A real pipe closed early, as `| head -1` closes it.
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^ewp ingest: stdout closed \(.*EPIPE.*\), so the report was cut short; the run went on: 3,000 view\(s\) read: 3,000 stored, 0 unchanged, 0 refused\n$/,
    );
    const store = new SqliteEvidenceStore(db, { readOnly: true });
    expect(await store.listPropositions({ limit: 5000 })).toHaveLength(3000);
    await store.close();
  });

  it('eval --jsonl | (reader closes): stops early, as a reader does', async () => {
    const child = spawn(process.execPath, [BIN, 'eval', '--jsonl'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const line = `{"view":${viewJson('P-1', 'a')}}\n`;
    child.stdin.on('error', () => undefined);
    child.stdin.write(line.repeat(20000));
    await once(child.stdout, 'data');
    child.stdout.destroy();
    const [code] = await once(child, 'close');
    expect(code).toBe(0);
  });
});
