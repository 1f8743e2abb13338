import { PassThrough } from 'node:stream';
import { MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { T, verifiedView } from '../test/views.js';
import { createEwpMcpServer, type DirectCalls, directCallsOf } from './server.js';
import { LineDelimitedServerTransport } from './stdio-transport.js';

const call = (id: number, propositionId: string) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ewp_warrant_now', arguments: { proposition_id: propositionId, evaluated_at: T } } })}\n`;

describe('LineDelimitedServerTransport, a pipelined client', () => {
  it('answers thousands of calls written at once, at most one batch of direct calls in flight, lines behind them in order', async () => {
    const store = new MemoryEvidenceStore();
    for (let i = 0; i < 20; i += 1) await store.put(verifiedView(`P-${i}`));
    const server = createEwpMcpServer({ store, roles: { ingest: false } });
    const direct = directCallsOf(server) as DirectCalls;
    let inFlight = 0;
    let most = 0;
    const counted: DirectCalls = (message) => {
      const answer = direct(message);
      if (answer === undefined) return undefined;
      inFlight += 1;
      most = Math.max(most, inFlight);
      return answer.finally(() => {
        inFlight -= 1;
      });
    };
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new LineDelimitedServerTransport(input, output, { direct: counted, directBatch: 8 });
    const closed = new Promise<void>((resolve) => {
      server.onclose = () => resolve();
    });
    await server.connect(transport);
    const replies: { id: number; result?: { structuredContent?: { proposition_id?: string } } }[] = [];
    let rest = '';
    output.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() as string;
      for (const l of lines) replies.push(JSON.parse(l));
    });
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
