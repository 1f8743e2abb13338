/**
 * The memory layer's REST routes for `ewp serve --http`, served through the HTTP server's routes seam
 * (same guard, body limit and token as `/mcp`): `POST /v1/store` (ingest role), `POST /v1/recall` and
 * `GET /v1/evidence/:hash` (any caller). Each body is read by the memory tool's schema and handled by
 * the same library function the MCP tools and the CLI call.
 */
import { memoryLedgerFor } from '@ewp/memory';
import { TOOL_SPECS } from '@ewp/spec/tools';
import { invalidArgument, memoryRecallQuery, memoryWriteInput, pageEvents, parseToolArguments, recallPage, ToolRefusal } from '@ewp/tools';
import type { RestRoute } from './rest-routes.js';

/** The memory routes. */
export const MEMORY_REST_ROUTES: readonly RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/store',
    role: 'ingest',
    // The tool's fields, `class` for `epistemic_class`; anything else is refused by name.
    fields: [...Object.keys(TOOL_SPECS.memory_store.input.shape).filter((k) => k !== 'epistemic_class'), 'class'],
    // `{text, class, supports?, project?, source?, derived_from?}`; answers the memory's hash, class and confidence (and the rest of its state).
    // Its source is the token's principal (`source` only a sub-source the operator allowed it: principal/source).
    handler: async (body, _params, ctx) => {
      const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      const { class: c, ...rest } = b;
      let a: ReturnType<typeof parseToolArguments<typeof TOOL_SPECS.memory_store.input>>;
      try {
        a = parseToolArguments(TOOL_SPECS.memory_store.input, { ...rest, epistemic_class: c });
      } catch (error) {
        // The REST body names the field `class`; the tool schema calls it `epistemic_class`.
        if (ToolRefusal.isInstance(error) && error.path === '$.epistemic_class') throw invalidArgument('$.class', error.reason);
        throw error;
      }
      return memoryLedgerFor(ctx.store, ctx.clock).store(memoryWriteInput(a, ctx.writer, {}, '$.class'));
    },
  },
  {
    method: 'POST',
    path: '/v1/recall',
    role: 'reader',
    fields: Object.keys(TOOL_SPECS.memory_recall.input.shape),
    // `{query, project?, class?, confidence_min?, limit?, cursor?}`; each row has class and confidence; a page of rows
    // (at most `limit`, and at most the page byte bound) with `next_cursor` for the next one.
    handler: async (body, _params, ctx) => {
      const a = parseToolArguments(TOOL_SPECS.memory_recall.input, body);
      return recallPage(memoryLedgerFor(ctx.store, ctx.clock), memoryRecallQuery(a), a.cursor);
    },
  },
  {
    method: 'GET',
    path: '/v1/evidence/:hash',
    role: 'reader',
    // The record (class, confidence, support_count, refute_count, distinct_sources, first/last seen, warrant) and a page of
    // its audit events (`?events_after=` a previous answer's `events_next_cursor`).
    handler: async (_body, params, ctx) => {
      const raw = ctx.query.get('events_after');
      if (raw !== null && !/^\d{1,15}$/.test(raw)) throw invalidArgument('events_after', "must be a previous answer's events_next_cursor");
      const shown = await memoryLedgerFor(ctx.store, ctx.clock).show(params.hash as string, ctx.query.get('evaluated_at') ?? undefined);
      return pageEvents(shown, raw === null ? undefined : Number(raw));
    },
  },
];
