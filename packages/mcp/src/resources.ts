/**
 * MCP resources over the ledger: `ewp://protocol`, the latest stored view of a proposition and
 * its warrant (docs/spec/store-contract.md §5 "Resources").
 */
import { POLICY_ID, PROTOCOL_VERSION } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type CompleteResult, ErrorCode, McpError, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { runTool, type ToolContext, toRefusal } from '@ewp/tools';
import { stableJson } from './stable-json.js';

/** JSON-RPC error code for an unknown resource (MCP convention). */
export const RESOURCE_NOT_FOUND = -32002;
const PROTOCOL_URI = 'ewp://protocol';
const PROPOSITION_PREFIX = 'ewp://proposition/';
const LISTED_PROPOSITIONS = 50;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'ewp://proposition/{proposition_id}',
    name: 'proposition-view',
    title: 'Latest stored view of a proposition',
    description: 'The latest stored EvidenceView (evidence only, no warrant). Percent-encode /, space and + in the id.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'ewp://proposition/{proposition_id}/warrant?evaluated_at={evaluated_at}',
    name: 'proposition-warrant',
    title: 'Warrant of a proposition at a time',
    description: 'The ewp_warrant_now result for the latest stored view at evaluated_at (a raw + stays +, so +00:00 works).',
    mimeType: 'application/json',
  },
];

/** `resources/list`: the protocol descriptor and the most recently written propositions. */
export async function listResources(store: EvidenceStore): Promise<Resource[]> {
  const protocol: Resource = { uri: PROTOCOL_URI, name: 'protocol', title: 'EWP protocol and policy', mimeType: 'application/json' };
  let propositions: Awaited<ReturnType<EvidenceStore['listPropositions']>>;
  try {
    propositions = await store.listPropositions({ limit: LISTED_PROPOSITIONS });
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, toRefusal(error).message, { ewp_code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
  }
  return [
    protocol,
    ...propositions.map(
      (p): Resource => ({
        uri: `${PROPOSITION_PREFIX}${encodeURIComponent(p.proposition_id)}`,
        name: p.proposition_id,
        description: `latest view ${p.latest_view_id} (${p.snapshots} snapshot${p.snapshots === 1 ? '' : 's'})`,
        mimeType: 'application/json',
      }),
    ),
  ];
}

function unknownResource(uri: string, message = `unknown resource ${JSON.stringify(uri)}`): McpError {
  return new McpError(RESOURCE_NOT_FOUND, message, { ewp_code: 'EWP_UNKNOWN_RESOURCE', uri });
}

/** A URI query where only `%XX` is decoded: a raw `+` stays `+` (timestamps like `+00:00`). */
function parseQuery(query: string, uri: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    params.set(decodePart(key, uri), decodePart(value, uri));
  }
  return params;
}

function decodePart(text: string, uri: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw unknownResource(uri, `bad percent-encoding in ${JSON.stringify(uri)}`);
  }
}

function contents(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: stableJson(value) }] };
}

/** `resources/read`. Refusals are JSON-RPC errors carrying `data.ewp_code`. */
export async function readResource(uri: string, context: ToolContext): Promise<ReadResourceResult> {
  if (uri === PROTOCOL_URI) {
    return contents(uri, { protocol: PROTOCOL_VERSION, policy: POLICY_ID, mcp: 'ewp-mcp' });
  }
  if (!uri.startsWith(PROPOSITION_PREFIX)) throw unknownResource(uri);
  const rest = uri.slice(PROPOSITION_PREFIX.length);
  const q = rest.indexOf('?');
  const path = q < 0 ? rest : rest.slice(0, q);
  const params = parseQuery(q < 0 ? '' : rest.slice(q + 1), uri);
  const segments = path.split('/');
  if (segments.length > 2 || segments[0] === '' || (segments.length === 2 && segments[1] !== 'warrant')) throw unknownResource(uri);
  const propositionId = decodePart(segments[0] as string, uri);
  const wantsWarrant = segments.length === 2 || params.get('kind') === 'warrant';
  const outcome = await (wantsWarrant
    ? runTool('ewp_warrant_now', { proposition_id: propositionId, evaluated_at: params.get('evaluated_at') }, context)
    : runTool('ewp_evidence_view_get', { proposition_id: propositionId }, context)
  ).catch((error: unknown) => ({ ok: false as const, refusal: toRefusal(error) }));
  if (outcome.ok) return contents(uri, outcome.value);
  const refusal = outcome.refusal;
  const code = refusal.code === 'EWP_REFUSE_MISSING_VIEW' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
  throw new McpError(code, refusal.message, { ewp_code: refusal.code, uri });
}

/** Most values one completion answer carries (the MCP limit). */
const MAX_COMPLETIONS = 100;
const PROPOSITION_TEMPLATES: ReadonlySet<string> = new Set(RESOURCE_TEMPLATES.map((t) => t.uriTemplate));

/**
 * `completion/complete` for the proposition URI templates: stored proposition ids that start with
 * what the client typed. Other references and arguments complete to nothing.
 */
export async function completeResourceArgument(
  store: EvidenceStore,
  ref: { type: string; uri?: string },
  argument: { name: string; value: string },
): Promise<CompleteResult> {
  if (ref.type !== 'ref/resource' || ref.uri === undefined || !PROPOSITION_TEMPLATES.has(ref.uri) || argument.name !== 'proposition_id') {
    return { completion: { values: [], hasMore: false } };
  }
  let found: Awaited<ReturnType<EvidenceStore['listPropositions']>>;
  try {
    // The store's query is a case-insensitive substring of ids and texts: narrow it to id prefixes here.
    found = await store.listPropositions({ query: argument.value, limit: 500 });
  } catch (error) {
    throw new McpError(ErrorCode.InternalError, toRefusal(error).message, { ewp_code: 'EWP_REFUSE_LEDGER_UNAVAILABLE' });
  }
  const ids = [...new Set(found.map((p) => p.proposition_id).filter((id) => id.startsWith(argument.value)))].sort();
  return { completion: { values: ids.slice(0, MAX_COMPLETIONS), total: ids.length, hasMore: ids.length > MAX_COMPLETIONS || found.length === 500 } };
}
