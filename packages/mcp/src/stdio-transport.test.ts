import { PassThrough } from 'node:stream';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { T, verifiedView } from '../test/views.js';
import { createEwpMcpServer } from './server.js';
import { LineDelimitedServerTransport, type RequestAnswerer } from './stdio-transport.js';
import { fastToolCall } from './tool-call-seam.js';

const call = (id: number, propositionId: string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: { proposition_id: propositionId, evaluated_at: T } } })}\n`;

/** The replies written to `output`, parsed as they come. */
function replyReader(output: PassThrough) {
  const replies: { id: number; result?: { structuredContent?: { proposition_id?: string } } }[] = [];
  let rest = '';
  output.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() as string;
    for (const l of lines) replies.push(JSON.parse(l));
  });
  return replies;
}

describe('LineDelimitedServerTransport, a pipelined client', () => {
  it('answers thousands of calls written at once, at most one batch of fast calls in flight, lines behind them in order', async () => {
    const store = new MemoryEvidenceStore();
    for (let i = 0; i < 20; i += 1) await store.put(verifiedView(`P-${i}`));
    const server = createEwpMcpServer({ store, roles: { ingest: false } });
    let inFlight = 0;
    let most = 0;
    const counted: RequestAnswerer = (message) => {
      const answer = fastToolCall(server, message);
      if (answer === undefined) return undefined;
      inFlight += 1;
      most = Math.max(most, inFlight);
      return answer.finally(() => {
        inFlight -= 1;
      });
    };
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineDelimitedServerTransport(input, output, { answer: counted, answerBatch: 8 });
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    await server.connect(transport);
    const replies = replyReader(output);
    let text = '';
    for (let id = 1; id <= 3000; id += 1) text += call(id, `P-${id % 20}`);
    // A request the SDK answers, behind the calls: answered too, once its turn comes.
    text += `${JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'ping' })}\n`;
    input.end(text);
    await closed;
    expect(most).toBeLessThanOrEqual(8);
    expect(replies).toHaveLength(3001);
    const byId = new Map(replies.map((r) => [r.id, r]));
    for (let id = 1; id <= 3000; id += 1) expect(byId.get(id)?.result?.structuredContent?.proposition_id).toBe(`P-${id % 20}`);
    expect(byId.get('last' as unknown as number)).toMatchObject({ result: {} });
  });
});

describe('LineDelimitedServerTransport, input and output limits', () => {
  async function served(answerer: (fast: RequestAnswerer) => RequestAnswerer, output: PassThrough, input = new PassThrough()) {
    const store = new MemoryEvidenceStore();
    for (let i = 0; i < 20; i += 1) await store.put(verifiedView(`P-${i}`));
    const server = createEwpMcpServer({ store, roles: { ingest: false } });
    const transport = new LineDelimitedServerTransport(input, output, {
      answer: answerer((message) => fastToolCall(server, message)),
      answerBatch: 8,
    });
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    await server.connect(transport);
    return { input, closed };
  }

  it('starts no more calls while a client does not read its replies, and answers every call once it does', async () => {
    let started = 0;
    const output = new PassThrough({ highWaterMark: 1024 });
    const { input, closed } = await served(
      (fast) => (message) => {
        const answer = fast(message);
        if (answer !== undefined) started += 1;
        return answer;
      },
      output,
    );
    let text = '';
    for (let id = 1; id <= 2000; id += 1) text += call(id, `P-${id % 20}`);
    input.end(text);
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    // Replies go out in writes of up to 64 KiB (about 40 of these); the first the reader does not take
    // stops the calls behind it (2,000 in one chunk) until the reader catches up.
    expect(started).toBeGreaterThan(0);
    expect(started).toBeLessThan(100);
    const replies = replyReader(output);
    await closed;
    expect(started).toBe(2000);
    expect(replies).toHaveLength(2000);
    const byId = new Map(replies.map((r) => [r.id, r]));
    for (let id = 1; id <= 2000; id += 1) expect(byId.get(id)?.result?.structuredContent?.proposition_id).toBe(`P-${id % 20}`);
  });

  it('keeps nothing of a read chunk past its data event (the stdio entry reads into one reused buffer)', async () => {
    const output = new PassThrough();
    const replies = replyReader(output);
    const input = new PassThrough();
    const { closed } = await served((fast) => fast, output, input);
    let text = '';
    for (let id = 1; id <= 500; id += 1) text += call(id, `P-${id % 20}`);
    const bytes = Buffer.from(text);
    // Odd-sized chunks (lines split across them), each delivered in one reused buffer that is
    // overwritten right after its event, as a socket with `onread` does.
    const reused = Buffer.alloc(997);
    for (let at = 0; at < bytes.length; at += reused.length) {
      const n = bytes.copy(reused, 0, at, Math.min(bytes.length, at + reused.length));
      input.emit('data', reused.subarray(0, n));
      reused.fill(0x7b);
    }
    input.emit('end');
    await closed;
    expect(replies).toHaveLength(500);
    const byId = new Map(replies.map((r) => [r.id, r]));
    for (let id = 1; id <= 500; id += 1) expect(byId.get(id)?.result?.structuredContent?.proposition_id).toBe(`P-${id % 20}`);
  });
});
