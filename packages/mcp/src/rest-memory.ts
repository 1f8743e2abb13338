/**
 * The memory layer's REST routes for `ewp serve --http`, served through the HTTP server's routes seam
 * (same guard, body limit and token as `/mcp`): `POST /v1/store` (ingest role), `POST /v1/recall` and
 * `GET /v1/evidence/:hash` (any caller). Each body is read by the memory tool's schema and handled by
 * the same library function the MCP tools and the CLI call.
 */
import { memoryLedgerFor } from '@ewp/memory';
import { invalidArgument, memoryRecallQuery, memoryStoreInput, ToolRefusal } from '@ewp/tools';
import { memoryToolArguments } from './memory-tools.js';
import type { RestRoute } from './rest-routes.js';

/** The memory routes. */
export const MEMORY_REST_ROUTES: readonly RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/store',
    role: 'ingest',
    // `{text, class, supports?, project?, source?}`; answers the memory's hash, class and confidence (and the rest of its state).
    handler: async (body, _params, ctx) => {
      const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      const { class: c, ...rest } = b;
      let a: ReturnType<typeof memoryToolArguments<'memory_store'>>;
      try {
        a = memoryToolArguments('memory_store', { ...rest, epistemic_class: c });
      } catch (error) {
        // The REST body names the field `class`; the tool schema calls it `epistemic_class`.
        if (ToolRefusal.isInstance(error) && error.path === '$.epistemic_class') throw invalidArgument('$.class', error.reason);
        throw error;
      }
      return memoryLedgerFor(ctx.store, ctx.clock).store(memoryStoreInput(a));
    },
  },
  {
    method: 'POST',
    path: '/v1/recall',
    role: 'reader',
    // `{query, project?, class?, confidence_min?, limit?}`; each row has class and confidence.
    handler: async (body, _params, ctx) => {
      const a = memoryToolArguments('memory_recall', body);
      const rows = await memoryLedgerFor(ctx.store, ctx.clock).recall(memoryRecallQuery(a));
      return { rows };
    },
  },
  {
    method: 'GET',
    path: '/v1/evidence/:hash',
    role: 'reader',
    // The record (class, confidence, support_count, refute_count, distinct_sources, first/last seen, warrant) and its audit events.
    handler: async (_body, params, ctx) => memoryLedgerFor(ctx.store, ctx.clock).show(params.hash as string, ctx.query.get('evaluated_at') ?? undefined),
  },
];
