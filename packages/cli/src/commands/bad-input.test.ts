/**
 * Bad bytes, oversized input and a reader that goes away, through every verb that reads view files:
 * a typed one-line refusal and a non-zero exit, never a replacement character or silent partial work.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
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

/**
 * The bad-input table: every row is one bad input through one surface (the argv of the real binary,
 * a verb's arguments, a file, the hook's stdin, MCP over stdio, the HTTP server's /mcp and REST
 * routes). A row is clean when it is refused in one typed line (or, for the hook, denied with the
 * reason and exit 0; over MCP and HTTP, a JSON error reply), without a stack trace, and nothing was
 * written: the ledger's chain head, the salience side file and the paths a row must not create are
 * as they were. The count of clean rows is recomputed on every run.
 */
describe('the bad-input table', () => {
  const tdir = mkdtempSync(join(tmpdir(), 'ewp-bad-table-'));
  afterAll(() => rmSync(tdir, { recursive: true, force: true }));
  const ledger = join(tdir, 'ewp.sqlite');
  const side = `${ledger}.salience.jsonl`;
  const fixture = fileURLToPath(new URL('../../../../conformance/pack/fixtures/08-verified-now.json', import.meta.url));
  const TOKEN = 'tok-table-0123456789abcdef0123456789abcdef';

  type Surface = 'argv (bin)' | 'arguments' | 'file' | 'hook stdin' | 'MCP stdio' | 'HTTP /mcp' | 'REST';
  interface Row {
    surface: Surface;
    input: string;
    /** Runs the input; returns whether it was refused cleanly, and what it printed (for the failure message). */
    run: () => Promise<{ refused: boolean; detail: string }>;
    /** Paths that must not exist afterwards. */
    absent?: string[];
  }

  const oneLine = (stderr: string) => stderr.trim().split('\n').length === 1 && stderr.trim() !== '';
  const noCrash = (text: string) => !/\n\s+at |internal error|TypeError|RangeError/.test(text);
  const cliRefused = (r: { code: number; stderr: string; stdout: string }) =>
    r.code !== 0 && r.code !== 70 && oneLine(r.stderr) && noCrash(r.stderr + r.stdout);

  async function verb(args: string[], stdin?: string | Buffer) {
    const { COMMANDS } = await import('../commands.js');
    const [name, ...rest] = args;
    const command = await COMMANDS[name as string]!.load();
    return runCaptured((io) => command(rest, io), { cwd: tdir, ...(stdin === undefined ? {} : { stdin }) });
  }
  const argumentsRow = (input: string, args: string[], absent?: string[]): Row => ({
    surface: 'arguments',
    input,
    run: async () => {
      const r = await verb(args);
      return { refused: cliRefused(r), detail: `${r.code} ${r.stderr}` };
    },
    ...(absent ? { absent } : {}),
  });
  const fileRow = (input: string, args: string[], stdin?: string | Buffer, exitCode?: number, says?: string): Row => ({
    surface: 'file',
    input,
    run: async () => {
      const r = await verb(args, stdin);
      return {
        refused: cliRefused(r) && (exitCode === undefined || r.code === exitCode) && (says === undefined || r.stderr.includes(says)),
        detail: `${r.code} ${r.stderr}`,
      };
    },
  });
  /** The built binary, its arguments passed as raw bytes through the shell (printf), as a terminal would pass them. */
  const binRow = (input: string, shellArgs: string): Row => ({
    surface: 'argv (bin)',
    input,
    run: async () => {
      const r = spawnSync('sh', ['-c', `exec "${process.execPath}" "${BIN}" ${shellArgs}`], { cwd: tdir, encoding: 'utf8', input: '' });
      return {
        refused: cliRefused({ code: r.status ?? -1, stderr: r.stderr, stdout: r.stdout }) && r.stderr.includes('INVALID_UTF8'),
        detail: `${r.status} ${r.stderr}`,
      };
    },
  });
  const hookArgs = () => ['hook', 'pre-tool-use', '--map', join(tdir, 'tools.json'), '--db', ledger];
  const denied = (status: number | null, stdout: string, stderr: string, reason: string) => {
    if (status !== 0 || !noCrash(stderr)) return false;
    const lines = stdout.trim().split('\n');
    if (lines.length !== 1) return false;
    const answer = JSON.parse(lines[0] as string) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };
    return answer.hookSpecificOutput?.permissionDecision === 'deny' && (answer.hookSpecificOutput.permissionDecisionReason ?? '').includes(reason);
  };
  const hookRow = (input: string, stdin: string | Buffer, reason: string, args = hookArgs()): Row => ({
    surface: 'hook stdin',
    input,
    run: async () => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tdir, encoding: 'utf8', input: stdin });
      return { refused: denied(r.status, r.stdout, r.stderr, reason), detail: `${r.status} ${r.stdout} ${r.stderr}` };
    },
  });
  const event = (toolName: unknown, toolInput: unknown = {}) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: toolName, tool_input: toolInput });
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(tdir, name), content);
    return name;
  };

  // MCP over stdio: the real server in-process, one raw line in, one JSON-RPC error reply out per row.
  let mcp: { send(raw: string | Buffer): Promise<Record<string, unknown>>; stop(): Promise<number> };
  const mcpRow = (input: string, raw: string | Buffer): Row => ({
    surface: 'MCP stdio',
    input,
    run: async () => {
      const reply = await mcp.send(raw);
      const error = reply.error as { code?: unknown; message?: unknown } | undefined;
      return { refused: typeof error?.code === 'number' && typeof error.message === 'string', detail: JSON.stringify(reply) };
    },
  });
  // HTTP: `ewp serve --http` in-process with an ingest token; /mcp and the REST routes.
  let http: { url: string; stop(): Promise<number> };
  const httpRow = (surface: 'HTTP /mcp' | 'REST', input: string, path: string, body: string | Buffer, token?: string, type = 'application/json'): Row => ({
    surface,
    input,
    run: async () => {
      const response = await fetch(new URL(path, http.url), {
        method: 'POST',
        headers: { 'content-type': type, accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
      const text = await response.text();
      let json: { error?: unknown } | undefined;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { refused: response.status >= 400 && response.status < 500 && json?.error !== undefined && noCrash(text), detail: `${response.status} ${text}` };
    },
  });

  const rows: Row[] = [
    // The argv of the built binary: Node decodes it lossy, so the bin refuses what shows the damage.
    binRow('store text with byte 0xff', `store "$(printf 'disk full\\377')" --class observation --db ewp.sqlite`),
    binRow('store text with a truncated sequence', `store "$(printf 'cut \\342\\202')" --class inference --db ewp.sqlite`),
    binRow('store --source with byte 0xfe', `store ok --class observation --source "$(printf 'tool\\376')" --db ewp.sqlite`),
    binRow('store --project=<overlong>', `store ok --class inference "--project=$(printf '\\300\\257')" --db ewp.sqlite`),
    binRow('store text with an encoded surrogate', `store "$(printf '\\355\\240\\200')" --class inference --db ewp.sqlite`),
    binRow('recall query with byte 0xc3 0x28', `recall "$(printf '\\303(')" --db ewp.sqlite`),
    binRow('evidence show <hash with 0xff>', `evidence show "$(printf '\\377')" --db ewp.sqlite`),
    binRow('memory readback --source <0xff>', `memory readback MEMORY.md --source "$(printf '\\377')" --db ewp.sqlite`),
    binRow('ingest --db <path with 0xff>', `ingest view.json --db "$(printf 'x\\377.sqlite')"`),
    binRow('recover retract <record with 0xff>', `recover retract P-win "$(printf 'check:\\377')" --db ewp.sqlite`),
    {
      surface: 'argv (bin)',
      input: 'store text with U+FFFD passed as text',
      run: async () => {
        const r = spawnSync(process.execPath, [BIN, 'store', 'a lone \ud800 surrogate', '--class', 'inference', '--db', 'ewp.sqlite'], {
          cwd: tdir,
          encoding: 'utf8',
        });
        return { refused: cliRefused({ code: r.status ?? -1, stderr: r.stderr, stdout: r.stdout }) && r.stderr.includes('argument 1'), detail: r.stderr };
      },
    },
    {
      surface: 'argv (bin)',
      input: 'hook --map <path with 0xff> (denied, exit 0)',
      run: async () => {
        const r = spawnSync('sh', ['-c', `exec "${process.execPath}" "${BIN}" hook pre-tool-use --map "$(printf 'tools\\377.json')" --db ewp.sqlite`], {
          cwd: tdir,
          encoding: 'utf8',
          input: event('mcp__ops__restart'),
        });
        return { refused: denied(r.status, r.stdout, r.stderr, 'INVALID_UTF8'), detail: `${r.status} ${r.stdout} ${r.stderr}` };
      },
    },

    // A verb's arguments: typos and bad values, refused before anything is opened or written.
    argumentsRow('recall --db typo.sqlite (missing ledger)', ['recall', 'x', '--db', 'typo.sqlite'], ['typo.sqlite']),
    argumentsRow('recall --json-dir typo-dir (missing ledger)', ['recall', '--json-dir', 'typo-dir'], ['typo-dir']),
    argumentsRow('evidence link a b --db missing', ['evidence', 'link', 'a', 'b', '--db', 'none1.sqlite'], ['none1.sqlite']),
    argumentsRow('evidence reclass h inference --db missing', ['evidence', 'reclass', 'h', 'inference', '--db', 'none2.sqlite'], ['none2.sqlite']),
    argumentsRow('evidence refute a b --db missing', ['evidence', 'refute', 'a', 'b', '--db', 'none3.sqlite'], ['none3.sqlite']),
    argumentsRow('memory readback --db missing', ['memory', 'readback', file('MEMORY.md', '# memory\n'), '--db', 'none4.sqlite'], ['none4.sqlite']),
    argumentsRow('evidence gate-stats --db missing', ['evidence', 'gate-stats', '--db', 'none5.sqlite'], ['none5.sqlite']),
    argumentsRow('recall --limit abc', ['recall', '--limit', 'abc', '--db', 'ewp.sqlite']),
    argumentsRow('recall --confidence-min x', ['recall', '--confidence-min', 'x', '--db', 'ewp.sqlite']),
    argumentsRow('recall with two queries', ['recall', 'a', 'b', '--db', 'ewp.sqlite']),
    argumentsRow('recall naming two ledgers', ['recall', '--db', 'ewp.sqlite', '--json-dir', 'j']),
    argumentsRow('store --class nonsense', ['store', 'x', '--class', 'nonsense', '--db', 'ewp.sqlite']),
    argumentsRow('store with no text', ['store', '--class', 'inference', '--db', 'ewp.sqlite']),
    argumentsRow('store --frobnicate', ['store', 'x', '--class', 'inference', '--frobnicate', '--db', 'ewp.sqlite']),
    argumentsRow('evidence frob', ['evidence', 'frob', '--db', 'ewp.sqlite']),
    argumentsRow('evidence show without a hash', ['evidence', 'show', '--db', 'ewp.sqlite']),
    argumentsRow('evidence show <unknown hash>', ['evidence', 'show', 'mem_nope', '--db', 'ewp.sqlite']),
    argumentsRow('memory frob', ['memory', 'frob', '--db', 'ewp.sqlite']),
    argumentsRow('memory checkout --out <a directory>', ['memory', 'checkout', '--out', '.', '--db', 'ewp.sqlite']),
    argumentsRow('memory checkout --out <missing parent>', ['memory', 'checkout', '--out', 'no/such/dir/M.md', '--db', 'ewp.sqlite'], ['no']),
    argumentsRow('recover retract P check:K-WRONG', ['recover', 'retract', 'P-win', 'check:K-WRONG', '--db', 'ewp.sqlite']),
    argumentsRow('recover retract P-typo check:k1', ['recover', 'retract', 'P-typo', 'check:k1', '--db', 'ewp.sqlite']),
    argumentsRow('recover retract P k1 (no kind)', ['recover', 'retract', 'P-win', 'k1', '--db', 'ewp.sqlite']),
    argumentsRow('recover plan --since yesterday', ['recover', 'plan', '--since', 'yesterday', '--db', 'ewp.sqlite']),
    argumentsRow('recover frob', ['recover', 'frob', '--db', 'ewp.sqlite']),
    argumentsRow('recover reevaluate P-typo', ['recover', 'reevaluate', 'P-typo', '--db', 'ewp.sqlite']),
    argumentsRow('decisions show dec_nope', ['decisions', 'show', 'dec_nope', '--db', 'ewp.sqlite']),
    argumentsRow('audit --db missing', ['audit', '--db', 'none6.sqlite'], ['none6.sqlite']),
    argumentsRow('ingest --max-view-bytes lots', ['ingest', 'view.json', '--db', 'ewp.sqlite', '--max-view-bytes', 'lots']),

    // Files: one byte rule (core's decodeUtf8) and one strict JSON reader (core's parseJsonStrict).
    fileRow('readback file with byte 0xff', ['memory', 'readback', file('m-ff.md', bytes('- the disk is ', [0xff], '\n')), '--db', 'ewp.sqlite']),
    fileRow('readback file ending inside a character', ['memory', 'readback', file('m-cut.md', bytes('- euro ', [0xe2, 0x82])), '--db', 'ewp.sqlite']),
    fileRow('readback file with an overlong sequence', ['memory', 'readback', file('m-over.md', bytes('- slash ', [0xc0, 0xaf], '\n')), '--db', 'ewp.sqlite']),
    fileRow('readback file with an encoded surrogate', [
      'memory',
      'readback',
      file('m-sur.md', bytes('- half ', [0xed, 0xa0, 0x80], '\n')),
      '--db',
      'ewp.sqlite',
    ]),
    fileRow('readback of a missing file', ['memory', 'readback', 'no-such.md', '--db', 'ewp.sqlite']),
    fileRow('ingest a view with byte 0xff', ['ingest', withByte('t-ff.json', 0xff), '--db', 'ewp.sqlite', '--evaluated-at', T]),
    fileRow('ingest a view with byte 0x80', ['ingest', withByte('t-80.json', 0x80), '--db', 'ewp.sqlite', '--evaluated-at', T]),
    fileRow('eval a view with byte 0xfe', ['eval', withByte('t-fe.json', 0xfe)]),
    fileRow('receipt issue of a view with byte 0xff', ['receipt', 'issue', withByte('t-ff2.json', 0xff)]),
    fileRow('receipt verify: a key given twice in the receipt', ['receipt', 'verify', 'twice-r.json', fixture], undefined, 2, 'DUPLICATE_KEY'),
    fileRow('receipt verify: a key given twice in the key file', [
      'receipt',
      'verify',
      'signed-r.json',
      fixture,
      '--keys',
      file('twice-k.json', '{"k":{"public_hex":"00","state":"ACTIVE"},"k":{}}'),
    ]),
    fileRow('receipt verify: a receipt that is not JSON', ['receipt', 'verify', file('notjson-r.json', '{"receipt": '), fixture]),
    fileRow('receipt verify: altered top-level receipt copy', ['receipt', 'verify', 'altered-r.json', fixture], undefined, 1),
    fileRow('receipt verify: altered receipt_digest', ['receipt', 'verify', 'altered-d.json', fixture], undefined, 1),
    fileRow(
      'decisions verify: a key given twice in the key file',
      ['decisions', 'verify', '--all', '--keys', file('twice-dk.json', '{"k":{"public_hex":"00","state":"ACTIVE"},"k":{}}'), '--db', 'ewp.sqlite'],
      undefined,
      2,
      'DUPLICATE_KEY',
    ),
    fileRow(
      'decisions verify: a key file that is not JSON',
      ['decisions', 'verify', '--all', '--keys', file('bad-dk.json', '{"k":'), '--db', 'ewp.sqlite'],
      undefined,
      2,
    ),
    fileRow('canonical: a key given twice on stdin', ['canonical'], '{"a":1,"a":2}'),
    fileRow('canonical: a lone surrogate escape on stdin', ['canonical'], '{"a":"\\udc00"}'),
    hookRow('hook mapping file with a key given twice', event('Write'), 'DUPLICATE_KEY', [
      'hook',
      'pre-tool-use',
      '--map',
      file('map-twice.json', '{"unmapped":"deny","unmapped":"pass","tools":[]}'),
      '--db',
      ledger,
    ]),
    hookRow('hook mapping file that is not JSON', event('Write'), 'unusable tool mapping', [
      'hook',
      'pre-tool-use',
      '--map',
      file('map-bad.json', '{"tools": ['),
      '--db',
      ledger,
    ]),

    // The hook's stdin, as Claude Code writes it: whatever cannot be read is denied (exit 0), never run.
    hookRow('hook stdin not JSON', '{"tool_name": ', 'not JSON'),
    hookRow('hook stdin empty', '', 'not JSON'),
    hookRow('hook stdin an array', '[1,2]', 'not a JSON object'),
    hookRow(
      'hook stdin: tool_name given twice',
      '{"tool_name":"mcp__ops__drop_table","tool_input":{"table":"u"},"tool_name":"mcp__ops__restart"}',
      'DUPLICATE_KEY: $.tool_name',
    ),
    hookRow(
      'hook stdin: a tool_input key given twice',
      event('mcp__ops__restart', { server: 'a' }).replace('{"server":"a"}', '{"server":"a","server":"b"}'),
      'DUPLICATE_KEY',
    ),
    hookRow('hook stdin: a lone surrogate escape', event('mcp__ops__restart\ud800'), 'LONE_SURROGATE'),
    hookRow('hook stdin: byte 0xff', bytes('{"tool_name":"x', [0xff], '"}'), 'not UTF-8'),
    hookRow('hook stdin: ends inside a character', bytes('{"tool_name":"x', [0xe2, 0x82]), 'not UTF-8'),
    hookRow('hook stdin: a PostToolUse event', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' }), 'not PreToolUse'),
    hookRow('hook stdin: no tool_name', JSON.stringify({ hook_event_name: 'PreToolUse' }), 'no tool_name'),
    hookRow('hook stdin: a byte order mark first', `\ufeff${event('mcp__ops__restart')}`, 'not JSON'),
    hookRow('hook stdin: nested 100,000 levels', `{"tool_name":"x","tool_input":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 'not JSON'),
    {
      surface: 'hook stdin',
      input: 'hook stdin: 17 MiB and more',
      run: async () => {
        const child = spawn(process.execPath, [BIN, ...hookArgs()], { cwd: tdir, stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.stderr.on('data', (d) => {
          stderr += d;
        });
        child.stdin.on('error', () => undefined);
        const chunk = Buffer.alloc(1024 * 1024, 0x61);
        child.stdin.write('{"tool_name":"x","pad":"');
        for (let i = 0; i < 32 && child.exitCode === null && child.stdin.writable; i++) {
          if (!child.stdin.write(chunk)) await Promise.race([once(child.stdin, 'drain'), once(child, 'exit')]).catch(() => undefined);
        }
        child.stdin.end();
        const [code] = await once(child, 'close');
        return { refused: denied(code as number, stdout, stderr, 'larger than 16 MiB'), detail: `${code} ${stdout} ${stderr}` };
      },
    },

    // MCP over stdio: each bad line gets a JSON-RPC error, and the server goes on.
    mcpRow('not JSON', '{oops\n'),
    mcpRow('byte 0xff', bytes('{"jsonrpc":"2.0","id":1,"method":"ping","x":"', [0xff], '"}\n')),
    mcpRow('id given twice', '{"jsonrpc":"2.0","id":1,"method":"ping","id":2}\n'),
    mcpRow('params.name given twice', '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ewp_list_propositions","name":"memory_store"}}\n'),
    mcpRow(
      'a tool argument given twice',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_store","arguments":{"text":"ok","text":"other","epistemic_class":"inference"}}}\n',
    ),
    mcpRow(
      'a lone surrogate escape',
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memory_store","arguments":{"text":"\\ud800","epistemic_class":"inference"}}}\n',
    ),
    mcpRow('nested 100,000 levels', `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}\n`),
    mcpRow('a batch', '[{"jsonrpc":"2.0","id":7,"method":"ping"}]\n'),
    mcpRow('id an object', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n'),
    mcpRow('unknown method', '{"jsonrpc":"2.0","id":8,"method":"tools/explode"}\n'),
    mcpRow('tool name not a string', '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":5}}\n'),
    mcpRow('a JSON string', '"ping"\n'),

    // HTTP: /mcp and the REST routes share the body reader.
    httpRow('HTTP /mcp', 'a key given twice', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}'),
    httpRow('HTTP /mcp', 'byte 0xff', '/mcp', bytes('{"jsonrpc":"2.0","id":1,"method":"', [0xff], '"}')),
    httpRow('HTTP /mcp', 'a lone surrogate escape', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"\\udc00"}'),
    httpRow('HTTP /mcp', 'not JSON', '/mcp', '{'),
    httpRow('REST', 'POST /v1/recall: a key given twice', '/v1/recall', '{"query":"a","query":"b"}'),
    httpRow('REST', 'POST /v1/recall: byte 0xff', '/v1/recall', bytes('{"query":"', [0xff], '"}')),
    httpRow('REST', 'POST /v1/recall: a lone surrogate escape', '/v1/recall', '{"query":"\\ud800"}'),
    httpRow('REST', 'POST /v1/recall: not JSON', '/v1/recall', '{"query":'),
    httpRow('REST', 'POST /v1/recall: an empty body', '/v1/recall', ''),
    httpRow('REST', 'POST /v1/store: a key given twice (with the token)', '/v1/store', '{"text":"ok","text":"forged","epistemic_class":"inference"}', TOKEN),
    httpRow('REST', 'POST /v1/store: without the token', '/v1/store', '{"text":"ok","epistemic_class":"inference"}'),
    httpRow('REST', 'POST /v1/store: not application/json', '/v1/store', '{"text":"ok"}', TOKEN, 'text/plain'),
  ];

  /** What must not change: the ledger's chain head and the salience side file. */
  async function written(): Promise<string> {
    const store = new SqliteEvidenceStore(ledger, { readOnly: true });
    const chain = await store.verifyChain();
    await store.close();
    return `${chain.ok ? chain.head : 'broken'} ${existsSync(side) ? statSync(side).size : 0}`;
  }

  it('refuses every row cleanly, writing nothing', async () => {
    // A ledger with evidence (for the hook and recover) and a memory; a mapping; receipts to alter.
    const store = new SqliteEvidenceStore(ledger);
    await store.put(JSON.parse(readFileSync(fixture, 'utf8')));
    await store.close();
    expect((await verb(['store', 'The scheduler runs at 06:00 on host-3', '--class', 'observation', '--db', 'ewp.sqlite'])).code).toBe(0);
    writeFileSync(
      join(tdir, 'tools.json'),
      JSON.stringify({ unmapped: 'ask', tools: [{ match: 'mcp__ops__*', proposition: 'P-win', action: { kind: 'restart', risk: 'low', reversible: true } }] }),
    );
    writeFileSync(join(tdir, 'view.json'), viewJson('P-view', 'fine'));
    const seedVectors = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/signed-receipts.json', import.meta.url)), 'utf8'));
    writeFileSync(join(tdir, 'seed.hex'), `${seedVectors.keys['key-1'].seed_hex}\n`);
    expect((await verb(['receipt', 'issue', fixture, '--key', 'seed.hex', '--key-id', 'key-1', '--out', 'signed-r.json'])).code).toBe(0);
    const signed = readFileSync(join(tdir, 'signed-r.json'), 'utf8');
    writeFileSync(join(tdir, 'twice-r.json'), signed.replace('"receipt": {', '"receipt": {\n    "view_id": "v-x",'));
    const doc = JSON.parse(signed);
    writeFileSync(join(tdir, 'altered-r.json'), JSON.stringify({ ...doc, receipt: { ...doc.receipt, view_id: 'v-forged' } }));
    writeFileSync(join(tdir, 'altered-d.json'), JSON.stringify({ ...doc, receipt_digest: 'a'.repeat(64) }));

    // MCP over stdio, the server of `ewp serve --allow-ingest` on the same ledger.
    const { serveCommand } = await import('./serve.js');
    const input = new PassThrough();
    const output = new PassThrough();
    const errors = new PassThrough();
    errors.resume();
    let buffered = '';
    const replies: Record<string, unknown>[] = [];
    const waiters: ((r: Record<string, unknown>) => void)[] = [];
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const reply = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
        buffered = buffered.slice(nl + 1);
        const waiter = waiters.shift();
        if (waiter) waiter(reply);
        else replies.push(reply);
      }
    });
    const next = () =>
      new Promise<Record<string, unknown>>((resolve) => (replies.length > 0 ? resolve(replies.shift() as Record<string, unknown>) : waiters.push(resolve)));
    const stdioDone = serveCommand(['--db', ledger, '--allow-ingest'], { stdin: input, stdout: output, stderr: errors, env: {}, cwd: tdir });
    input.write(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}\n',
    );
    await next();
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    mcp = {
      send: (raw) => {
        input.write(raw);
        return next();
      },
      stop: () => {
        input.end();
        return stdioDone;
      },
    };

    // HTTP, with an ingest token.
    writeFileSync(join(tdir, 'token'), TOKEN, { mode: 0o600 });
    const httpErr = new PassThrough();
    let httpLog = '';
    httpErr.on('data', (c) => {
      httpLog += c;
    });
    const httpDone = serveCommand(['--http', '127.0.0.1:0', '--db', ledger, '--ingest-token-file', join(tdir, 'token')], {
      stdin: new PassThrough(),
      stdout: new PassThrough(),
      stderr: httpErr,
      env: {},
      cwd: tdir,
    });
    for (let i = 0; i < 500 && !httpLog.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (\S+)/.exec(httpLog)?.[1];
    expect(url, httpLog).toBeDefined();
    http = {
      url: url as string,
      stop: async () => {
        process.emit('SIGTERM', 'SIGTERM');
        return httpDone;
      },
    };

    const table: string[] = [];
    const counts = new Map<Surface, [number, number]>();
    let clean = 0;
    for (const row of rows) {
      const before = await written();
      const { refused, detail } = await row.run();
      const after = await written();
      const created = (row.absent ?? []).filter((p) => existsSync(join(tdir, p)));
      const ok = refused && before === after && created.length === 0;
      if (ok) clean++;
      const [c, t] = counts.get(row.surface) ?? [0, 0];
      counts.set(row.surface, [c + (ok ? 1 : 0), t + 1]);
      table.push(
        `${ok ? 'clean' : 'NOT CLEAN'}\t${row.surface}\t${row.input}${ok ? '' : `\t${before === after ? '' : 'wrote! '}${created.join(',')} ${detail.slice(0, 300)}`}`,
      );
    }
    // The server went on serving after every bad line.
    expect(await mcp.send('{"jsonrpc":"2.0","id":99,"method":"ping"}\n')).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
    expect(await mcp.stop()).toBe(0);
    expect(await http.stop()).toBe(0);

    const summary = [...counts].map(([s, [c, t]]) => `${s} ${c}/${t}`).join(', ');
    console.log(`bad-input table: ${clean} of ${rows.length} refused cleanly (${summary})\n${table.join('\n')}`);
    expect(rows.length).toBeGreaterThanOrEqual(60);
    expect(table.filter((line) => !line.startsWith('clean'))).toEqual([]);
    expect(clean).toBe(rows.length);
  }, 240_000);
});
