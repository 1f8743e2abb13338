/** `ewp inspect` in process over a real SQLite ledger: read-only, loopback, stops on SIGINT. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../cli-io.js';
import { runCaptured } from '../testing/captured-io.js';
import { inspectCommand } from './inspect.js';
import { memoryRecallCommand } from './memory-recall.js';
import { memoryStoreCommand } from './memory-store.js';

const quickstart = JSON.parse(readFileSync(new URL('../../../../conformance/pack/examples/quickstart.json', import.meta.url), 'utf8')) as { views: unknown[] };

function status(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs `ewp inspect args` until `use(url)` is done, then SIGINT; resolves with its exit code and stderr. */
async function inspecting(args: string[], use: (url: string) => Promise<void>): Promise<{ code: number; said: string }> {
  const stderr = new PassThrough();
  let said = '';
  const listening = new Promise<string>((resolve) => {
    stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(said)?.[1];
      if (url) resolve(url);
    });
  });
  const io: CliIO = { stdin: new PassThrough(), stdout: new PassThrough(), stderr, env: {}, cwd: tmpdir() };
  const exit = inspectCommand([...args, '--port', '0'], io);
  try {
    await use(await listening);
  } finally {
    process.emit('SIGINT', 'SIGINT');
  }
  const code = await exit;
  await new Promise((resolve) => setImmediate(resolve));
  return { code, said };
}

describe('ewp inspect', () => {
  it('serves the page over a ledger, read-only, until SIGINT', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-cli-')), 'ewp.sqlite');
    const writer = new SqliteEvidenceStore(file);
    for (const view of quickstart.views) await writer.put(view);
    await writer.close();
    const { code, said } = await inspecting(['--db', file], async (url) => {
      const meta = (await (await fetch(`${url}api/meta`)).json()) as { label: string };
      expect(meta.label).toContain('read-only');
      const page = (await (await fetch(`${url}api/propositions`)).json()) as { items: unknown[] };
      expect(page.items).toHaveLength(quickstart.views.length);
      expect(await status(`${url}api/propositions`, 'POST')).toBe(405);
    });
    expect(code).toBe(0);
    expect(said, said).toContain('SIGINT, shutting down');
  });

  it('reads the salience the memory verbs keep beside the ledger, and --salience names another file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ewp-inspect-cli-memory-'));
    const db = join(dir, 'ewp.sqlite');
    const stored = await runCaptured((io) => memoryStoreCommand(['The nightly backup is slow', '--class', 'hypothesis', '--json', '--db', db], io), {
      cwd: dir,
    });
    const { hash } = JSON.parse(stored.stdout) as { hash: string };
    for (let i = 0; i < 3; i += 1) expect((await runCaptured((io) => memoryRecallCommand(['backup', '--db', db], io), { cwd: dir })).code).toBe(0);
    const memoryAt = async (url: string) =>
      (
        (await (await fetch(`${url}api/memory?id=mem:${hash}`)).json()) as {
          memory: { class: string; salience: { recall_count: number } | null; salience_from: string };
        }
      ).memory;
    const byDefault = await inspecting(['--db', db], async (url) => {
      expect(await memoryAt(url)).toMatchObject({ class: 'hypothesis', salience: { recall_count: 3 }, salience_from: `${db}.salience.jsonl` });
    });
    expect(byDefault.code).toBe(0);
    const elsewhere = join(dir, 'none.jsonl');
    const named = await inspecting(['--db', db, '--salience', elsewhere], async (url) => {
      expect(await memoryAt(url)).toMatchObject({ class: 'hypothesis', salience: { recall_count: 0 }, salience_from: elsewhere });
    });
    expect(named.code).toBe(0);
  });

  it('refuses a missing ledger, no ledger, and a bad port, with exit 2', async () => {
    const missing = await runCaptured((io) => inspectCommand(['--db', join(tmpdir(), 'no-such-dir-ewp', 'x.sqlite'), '--port', '0'], io));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ewp inspect: /);
    const none = await runCaptured((io) => inspectCommand([], io));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('name a ledger');
    const port = await runCaptured((io) => inspectCommand(['--db', 'x.sqlite', '--port', 'eighty'], io));
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port must be an integer');
  });
});
