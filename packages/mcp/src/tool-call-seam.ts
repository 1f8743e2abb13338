/**
 * The one place where a `tools/call` request may skip the SDK's Protocol and Server: the fast road,
 * kept because it is measured (docs/mcp.md, "How a call travels"; docs/performance.md). It is taken only
 * for requests it answers exactly as the SDK road would, byte for byte (`tool-call-seam.test.ts`
 * sends the same requests down both roads):
 *
 * - the request is checked with the SDK's own `CallToolRequestSchema`, as `Server`'s `tools/call`
 *   wrapper checks it; a request that fails it, or carries `_meta` or `task` (the Protocol's
 *   business: progress, related tasks, task creation), is handed to the Protocol, which answers it;
 * - the result is what the server's `tools/call` handler returns (the same function computes it),
 *   framed as the Protocol frames a reply (`result`, `jsonrpc`, `id`, in that order), and a handler
 *   that throws is answered as the Protocol answers it.
 *
 * What the fast road saves: the Protocol's three message-schema passes, a second parse of the request,
 * the parse of the result, a cancellation controller and a request context per call, and the
 * serialisation of an already serialised text; a deterministic tool's result text is reused while
 * the ledger is unchanged ({@link ToolResultCache}), and `ewp_warrant_now` on a stored snapshot is
 * answered from the kept text of its warrant piece, with T spliced in ({@link WarrantReplies}).
 */
import type { EvidenceStore } from '@ewp/ledger';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolResultCache } from './tool-result-cache.js';
import { storedWarrantCall, WarrantReplies } from './warrant-replies.js';

/** What the fast road needs of a server: the work of its `tools/call` handler, as text. */
export interface ToolCallRoad {
  /** The ledger the tools read: a deterministic tool's result is reused while its revision is unchanged. */
  store: EvidenceStore;
  /** Whether tool `name` is deterministic (the same arguments on the same ledger give the same result). */
  deterministic(name: string): boolean;
  /**
   * The JSON text of the `CallToolResult` the server's `tools/call` handler returns for this call
   * (one that `CallToolResultSchema` passes unchanged); rejects as the handler throws.
   */
  resultText(name: string, args: Record<string, unknown> | undefined, requestId: string | number): Promise<string>;
}

interface OpenSeam {
  road: ToolCallRoad;
  cache: ToolResultCache | undefined;
  replies: WarrantReplies | undefined;
}

const SEAMS = new WeakMap<Server, OpenSeam>();

/** Open the fast road of `server` (called once, by the function that makes the server and its handlers). */
export function openToolCallSeam(server: Server, road: ToolCallRoad): void {
  SEAMS.set(server, { road, cache: ToolResultCache.over(road.store), replies: WarrantReplies.of(road.store) });
}

/**
 * The fast road of one message to `server`: the JSON text of its reply, as the SDK's Protocol would
 * send it, or `undefined` when the message is not one the fast road takes (it then goes to the
 * Protocol). Never rejects. A transport calls it before handing a message to the Protocol.
 */
export function fastToolCall(server: Server, message: JSONRPCMessage): Promise<string> | undefined {
  const m = message as { id?: unknown; method?: unknown };
  // A notification is the Protocol's (it ignores a `tools/call` without an id).
  if (m.method !== 'tools/call' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return undefined;
  const seam = SEAMS.get(server);
  if (seam === undefined) return undefined;
  // The SDK's own check, as `Server` makes it; the Protocol answers what fails it, with the SDK's error.
  const checked = CallToolRequestSchema.safeParse(message);
  if (!checked.success) return undefined;
  const { name, arguments: args, _meta, task } = checked.data.params;
  if (_meta !== undefined || task !== undefined) return undefined;
  const id = m.id;
  const compute = (): Promise<string> => seam.road.resultText(name, args, id);
  // The arguments came from JSON text, so their JSON text names them (key order aside: a miss, never a wrong hit).
  const computed = (): Promise<string> =>
    seam.cache !== undefined && seam.road.deterministic(name) ? seam.cache.text(`${name}\n${JSON.stringify(args ?? {})}`, compute) : compute();
  // A stored snapshot's warrant: the kept text of its piece when one answers, else computed (and kept).
  const stored = name === 'ewp_warrant_now' && seam.replies !== undefined ? storedWarrantCall(args) : undefined;
  const text = stored !== undefined ? (seam.replies as WarrantReplies).text(stored, computed) : computed();
  return text.then(
    (result) => `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`,
    (error: unknown) => {
      // As the Protocol answers a handler that throws.
      const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
      const code = Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError;
      const message = e.message ?? 'Internal error';
      return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(e.data !== undefined ? { data: e.data } : {}) } });
    },
  );
}
