/** Schema pieces every group of tools shares, and the shape of one registry entry. */
import { z } from 'zod/v4';
import { EPISTEMIC_CLASSES } from '../evidence-layer.js';
import { FIELD_LIMITS } from '../field-limits.js';

/** Who may call a tool: `read` every caller, `ingest` a caller holding the server-side ingest role (checked before any argument is read). */
export type ToolRole = 'read' | 'ingest';

/** The tool roles, readers first. */
export const TOOL_ROLES = Object.freeze(['read', 'ingest'] as const satisfies readonly ToolRole[]);

/** One agent-callable tool: what every binding advertises and what `runTool` of `@ewp/tools` checks. */
export interface ToolSpec<N extends string = string, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly title: string;
  /** The one text a model reads about the tool, in every binding. */
  readonly description: string;
  /** The arguments as models and clients see them; the tool's decoder decides (every malformed value gets its own code and JSON path). */
  readonly input: I;
  /** The result of a call that was not refused. */
  readonly output: O;
  readonly role: ToolRole;
  /**
   * The result is a function of the arguments, the caller's role and the ledger's contents alone (no
   * clock): a binding may reuse it while the ledger's revision is unchanged.
   */
  readonly deterministic?: boolean;
}

/** Free text. */
export const text = z.string();
/** A list of ids or texts. */
export const idList = z.array(text);
/** An id argument as the decoders read it: a non-empty string, or a number taken as its text. */
export const idArg = z.union([z.string().min(1).max(FIELD_LIMITS.id), z.number()]);
/** An ISO 8601 instant argument. */
export const instantArg = text.describe('ISO 8601 instant, e.g. 2026-09-21T21:00:00Z');

/**
 * A list element a bounded page shortened to fit (long strings and arrays cut, or only its summary
 * kept): the page says so with `truncated: true` rather than drop it.
 */
export const shortenedItem = z
  .looseObject({ truncated: z.literal(true) })
  .describe('an item shortened to fit the page (strings and arrays cut, or its summary only)');

/** One epistemic class. */
export const epistemicClass = z.enum(EPISTEMIC_CLASSES);

/** A stored ledger entry (`EvidenceStore.readEntries`). */
export const ledgerEntrySchema = z.object({
  kind: text,
  id: text,
  subjects: idList,
  body: z.record(z.string(), z.unknown()),
  chain_index: z.number().int().describe('position in the hash chain'),
  committed_at: text,
});
