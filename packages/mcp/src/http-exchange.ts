/**
 * One long-lived server-side transport for stateless Streamable HTTP: every POST hands its message to
 * the same connected SDK server and gets its reply back, so no server, transport, `Request` or
 * `Headers` object is made per request. Each request enters under a private id (clients' ids may
 * collide across connections) and its reply leaves under the client's own id.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A reply as sent back to the HTTP client: the Protocol's reply, its keys in the Protocol's order, the client's own id restored. */
export type ExchangeReply = { jsonrpc: '2.0'; id: string | number; result: unknown } | { jsonrpc: '2.0'; id: string | number; error: unknown };

export class HttpExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private nextId = 0;
  /** Private id → the waiting POST and the client's id. */
  private readonly waiting = new Map<number, { clientId: string | number; resolve: (reply: ExchangeReply) => void }>();

  async start(): Promise<void> {}

  /** Hand a request to the server; resolves with its reply under the client's id. */
  exchange(request: JSONRPCMessage & { id: string | number }): Promise<ExchangeReply> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, { clientId: request.id, resolve });
      this.onmessage?.({ ...request, id } as JSONRPCMessage);
    });
  }

  /** Hand over a notification or a response (answered 202, nothing comes back). */
  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    // Server-initiated requests and notifications have no stream to travel on (no SSE): dropped.
    if (m.method !== undefined || typeof m.id !== 'number') return;
    const waiter = this.waiting.get(m.id);
    if (waiter === undefined) return;
    this.waiting.delete(m.id);
    // The id is replaced in place: the reply keeps the Protocol's key order, as the tool-call seam writes it.
    waiter.resolve({ ...message, id: waiter.clientId } as ExchangeReply);
  }

  async close(): Promise<void> {
    this.waiting.clear();
    this.onclose?.();
  }
}
