import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PACK_DIR } from '@ewp/conformance';
import { evaluateHarnessLine } from '@ewp/conformance/oracle';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { evalCommand, evaluateLine, evaluateLineJson } from './eval.js';

const vectors = gunzipSync(readFileSync(new URL('../../../../conformance/vectors/evaluate.jsonl.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter(Boolean);

function run(args: string[], stdin = '') {
  return runCaptured((io) => evalCommand(args, io), { stdin });
}

describe('ewp eval --jsonl: the batch contract', () => {
  it('agrees with the independent oracle on all 7558 reference vector lines', () => {
    let compared = 0;
    for (const line of vectors) {
      const oracle = evaluateHarnessLine(line);
      const ours = evaluateLine(line);
      if (!oracle.ok && /python_repr/.test(line) && !ours.ok && ours.error.code === 'UNSUPPORTED_TEXT_VALUE') continue;
      expect(ours.ok, line.slice(0, 200)).toBe(oracle.ok);
      if (ours.ok && oracle.ok) expect(JSON.parse(JSON.stringify(ours.warrant))).toStrictEqual(oracle.warrant);
      compared++;
    }
    expect(compared).toBeGreaterThan(7300);
  });

  it('writes each result line as JSON.stringify writes the result, on every reference vector line', () => {
    for (const line of vectors) {
      const result = evaluateLine(line);
      expect(evaluateLineJson(line), line.slice(0, 200)).toEqual({ ok: result.ok, json: JSON.stringify(result) });
    }
  });

  it('answers every line in order, bad lines included, and never stops', async () => {
    const good = JSON.stringify({ view: { proposition_id: 'P' }, evaluated_at: '2026-01-01T00:00:00Z' });
    const input = [
      good,
      'not json',
      '',
      '[1]',
      '{"view": 5}',
      '{"view": {"proposition_id": "P"}, "evaluated_at": "soon"}',
      '{"view": {"proposition_id": "P", "evaluated_at": "2026-01-01"}}',
      good,
    ].join('\n');
    const r = await run(['--jsonl'], input);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => (l.ok ? 'ok' : l.error.code))).toEqual(['ok', 'JSON_SYNTAX', 'NOT_AN_OBJECT', 'NOT_AN_OBJECT', 'BAD_EVALUATED_AT', 'ok', 'ok']);
    expect(lines[3].error.path).toBe('$.view');
    expect(lines[5].warrant.evaluated_at).toBe('2026-01-01');
    expect(r.code).toBe(1);
  });

  it('works as a process on stdin/stdout (the built binary)', () => {
    const bin = new URL('../../dist/bin.js', import.meta.url);
    const lines = vectors.slice(0, 200).join('\n');
    const r = spawnSync(process.execPath, [bin.pathname, 'eval', '--jsonl'], { input: lines, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toHaveLength(200);
  });

  it('reads stdin redirected from a file (read synchronously) exactly as from a pipe', () => {
    const bin = new URL('../../dist/bin.js', import.meta.url).pathname;
    // Every vector line, with CRLF endings on some and no final newline: many 64 KiB reads, lines cut across them.
    const text = vectors.map((line, i) => (i % 3 === 0 ? `${line}\r` : line)).join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'ewp-eval-'));
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, text);
    const fd = openSync(file, 'r');
    try {
      const fromFile = spawnSync(process.execPath, [bin, 'eval', '--jsonl'], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 30 });
      const fromPipe = spawnSync(process.execPath, [bin, 'eval', '--jsonl'], { input: text, encoding: 'utf8', maxBuffer: 1 << 30 });
      expect(fromFile.stderr).toBe('');
      expect(fromFile.stdout).toBe(fromPipe.stdout);
      expect(fromFile.stdout).toBe(vectors.map((line) => `${JSON.stringify(evaluateLine(line))}\n`).join(''));
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ewp eval <file>', () => {
  it('prints the five axes and the reasons', async () => {
    const r = await run([`${PACK_DIR}fixtures/08-verified-now.json`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/acceptance\s+ACCEPTED/);
    expect(r.stdout).toMatch(/reasons\s+acceptance\.accepted, verification\.external/);
  });
  it('reports a refusal with its code and path and exits 1', async () => {
    const r = await run([`${PACK_DIR}invalid/unknown_polarity.json`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('UNKNOWN_ENUM_VALUE');
    expect(r.stderr).toContain('$.evidence[0].polarity');
  });
  it('evaluates every view of a {"views": [...]} file at --at and prints JSON', async () => {
    const r = await run([`${PACK_DIR}examples/quickstart.json`, '--at', '2026-09-23T12:00:00Z', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((w: { warrant: { acceptance: string } }) => w.warrant.acceptance)).toEqual(['TENTATIVE', 'ACCEPTED', 'TENTATIVE']);
  });
  it('exits 2 on bad arguments', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['--bogus'])).code).toBe(2);
  });
});
