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

describe('ewp inspect', () => {
  it('serves the page over a ledger, read-only, until SIGINT', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ewp-inspect-cli-')), 'ewp.sqlite');
    const writer = new SqliteEvidenceStore(file);
    for (const view of quickstart.views) await writer.put(view);
    await writer.close();
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
    const exit = inspectCommand(['--db', file, '--port', '0'], io);
    const url = await listening;
    const meta = (await (await fetch(`${url}api/meta`)).json()) as { label: string };
    expect(meta.label).toContain('read-only');
    const page = (await (await fetch(`${url}api/propositions`)).json()) as { items: unknown[] };
    expect(page.items).toHaveLength(quickstart.views.length);
    expect(await status(`${url}api/propositions`, 'POST')).toBe(405);
    process.emit('SIGINT', 'SIGINT');
    expect(await exit).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(said, said).toContain('SIGINT, shutting down');
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
