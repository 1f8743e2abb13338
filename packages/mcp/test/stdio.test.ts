/** stdio: a real subprocess, the SDK's StdioClientTransport, and raw malformed lines. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-entry.js';
import { TOOL_NAMES } from '@ewp/spec/tools';
import { ok, refused } from './harness.js';
import { T, verifiedView } from './views.js';

let entry: string;
beforeAll(async () => {
  entry = await bundleEntry(fileURLToPath(new URL('./fixtures/stdio-server.ts', import.meta.url)));
}, 60_000);

async function sdkClient(args: string[]): Promise<Client> {
  const client = new Client({ name: 'ewp-stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry, ...args], stderr: 'pipe' }));
  return client;
}

describe('stdio with the SDK client (subprocess)', () => {
  it('serves the tools with --allow-ingest', async () => {
    const client = await sdkClient(['--allow-ingest']);
    expect(client.getServerVersion()?.name).toBe('ewp-mcp');
    await ok(client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true });
    const w = await ok(client, 'ewp_warrant_now', { proposition_id: 'P-win', evaluated_at: T });
    expect(w.warrant).toMatchObject({ acceptance: 'ACCEPTED' });
    const resource = await client.readResource({ uri: 'ewp://proposition/P-win' });
    expect(JSON.parse((resource.contents[0] as { text: string }).text).view_id).toBe('v-ver');
    await client.close();
  });

  it('refuses writes without --allow-ingest', async () => {
    const client = await sdkClient([]);
    expect(await refused(client, 'ewp_evidence_view_put', { view: verifiedView(), ingest_attestation: true })).toBe('EWP_REFUSE_INGEST_ROLE');
    await client.close();
  });
});

/** A raw line-level session with the subprocess. */
class RawSession {
  private buffer = '';
  private waiting: Array<(line: string) => void> = [];
  private readonly lines: string[] = [];
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const waiter = this.waiting.shift();
        if (waiter) waiter(line);
        else this.lines.push(line);
      }
    });
  }
  send(raw: string | Buffer): void {
    this.child.stdin.write(raw);
  }
  next(): Promise<Record<string, unknown>> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no reply within 5 s')), 5000);
      this.waiting.push((l) => {
        clearTimeout(timer);
        resolve(JSON.parse(l));
      });
    });
  }
  async request(id: number, method: string, params: unknown = {}): Promise<Record<string, unknown>> {
    this.send(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return this.next();
  }
}

describe('stdio framing with malformed input', () => {
  let session: RawSession;
  beforeAll(async () => {
    session = new RawSession(spawn(process.execPath, [entry, '--allow-ingest']));
    const init = await session.request(0, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
    session.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  });
  afterAll(() => {
    session.child.stdin.end();
  });

  const cases: Array<[string, string | Buffer, number, unknown]> = [
    ['not JSON', '{oops\n', -32700, null],
    ['not UTF-8', Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]), -32700, null],
    ['a key given twice', '{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"ewp_list_propositions","name":"ewp_ingest"}}\n', -32700, null],
    [
      'a lone surrogate escape',
      '{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"ewp_warrant_now","arguments":{"proposition_id":"\\ud800"}}}\n',
      -32700,
      null,
    ],
    ['a JSON string', '"ping"\n', -32600, null],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]\n', -32600, null],
    ['an empty batch', '[]\n', -32600, null],
    ['no method', '{"jsonrpc":"2.0","id":7}\n', -32600, 7],
    ['method not a string', '{"jsonrpc":"2.0","id":8,"method":5}\n', -32600, 8],
    ['id null', '{"jsonrpc":"2.0","id":null,"method":"ping"}\n', -32600, null],
    ['id boolean', '{"jsonrpc":"2.0","id":true,"method":"ping"}\n', -32600, null],
    ['id float', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n', -32600, null],
    ['id object', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n', -32600, null],
    ['wrong jsonrpc version', '{"jsonrpc":"1.0","id":9,"method":"ping"}\n', -32600, 9],
    ['params not an object', '{"jsonrpc":"2.0","id":10,"method":"tools/list","params":[1]}\n', -32602, 10],
    ['tool name not a string', '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":5}}\n', -32602, 11],
    ['uri not a string', '{"jsonrpc":"2.0","id":12,"method":"resources/read","params":{"uri":[]}}\n', -32602, 12],
    ['unknown method', '{"jsonrpc":"2.0","id":13,"method":"tools/explode"}\n', -32601, 13],
    [
      'tool arguments nested 100,000 levels',
      `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"ewp_warrant_now","arguments":{"proposition_id":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}\n`,
      -32700,
      null,
    ],
    ['a line over 1 MiB', `{"jsonrpc":"2.0","id":14,"method":"ping","pad":"${'x'.repeat(1_100_000)}"}\n`, -32600, null],
  ];

  for (const [label, raw, code, id] of cases) {
    it(`${label} → ${code}, and the server keeps serving`, async () => {
      session.send(raw);
      const reply = await session.next();
      expect(reply).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
      expect(await session.request(100, 'ping')).toEqual({ jsonrpc: '2.0', id: 100, result: {} });
    });
  }

  it('blank lines, CRLF and notifications get no reply; params null is {}', async () => {
    session.send('\n   \r\n{"jsonrpc":"2.0","method":"notifications/whatever","params":5}\n');
    session.send('{"jsonrpc":"2.0","id":20,"method":"tools/list","params":null}\r\n');
    const reply = await session.next();
    expect(reply.id).toBe(20);
    expect((reply.result as { tools: unknown[] }).tools).toHaveLength(TOOL_NAMES.length);
  });

  it('a message split across writes is reassembled', async () => {
    const line = JSON.stringify({ jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'ewp_list_propositions', arguments: {} } });
    session.send(line.slice(0, 10));
    await new Promise((r) => setTimeout(r, 20));
    session.send(`${line.slice(10)}\n`);
    const reply = await session.next();
    expect(reply.id).toBe(30);
    expect((reply.result as { structuredContent: { propositions: unknown[] } }).structuredContent.propositions).toEqual([]);
  });

  it('end of input ends the server', async () => {
    const child = spawn(process.execPath, [entry]);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
