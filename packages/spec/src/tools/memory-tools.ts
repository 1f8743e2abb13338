/**
 * The memory tools (`memory_store`, `memory_recall`, `memory_auto_context`, `memory_evidence_*`): the
 * evidence layer of `@ewp/memory` for an agent. A memory has an epistemic class and a confidence from
 * independent observations; recall makes it hot, never better founded. A stored memory's source is its
 * writer's principal, never an argument's free choice.
 */
import { z } from 'zod/v4';
import { FIELD_LIMITS } from '../field-limits.js';
import { POLARITIES } from '../protocol.js';
import { epistemicClass, ledgerEntrySchema, shortenedItem, text } from './shared.js';
import { warrantAxesSchema } from './wire.js';

const hash = z
  .string()
  .min(1)
  .max(FIELD_LIMITS.id)
  .describe('a memory hash (mem:<hash> in the auto-context, or hash as memory_store or memory_recall answered it)');

/** Argument fields the memory tools share. */
export const MEMORY_ARGUMENT_FIELDS = {
  /** A memory hash. */
  hash,
  /** One epistemic class. */
  epistemic_class: epistemicClass,
  /** A project scope, or null / absent for global memories. */
  project: z.string().min(1).max(FIELD_LIMITS.kind).nullable().optional().describe('project scope; omit for global memories. Supports never cross scopes.'),
  /** T for confidence and warrant. */
  evaluated_at: z.string().max(FIELD_LIMITS.kind).optional().describe('ISO-8601 instant T for confidence and warrant; default: the server clock'),
  /** A recall page's cursor. */
  cursor: z.string().optional().describe("a previous page's next_cursor: the rows after it (the ranking is recomputed, so a recall in between can move rows)"),
  /** An event page's cursor. */
  events_after: z.number().int().min(0).optional().describe("only the events after this chain index (a previous answer's events_next_cursor)"),
} as const;

const { project, evaluated_at: at } = MEMORY_ARGUMENT_FIELDS;
const count = z.number().int().min(0);
const confidence = z.number().min(0).max(100).describe('0-100, from independent observations only (never from recall)');

/** Salience: how hot a memory is (recall and replay raise it), never how well founded. */
const salience = z.object({
  recall_count: z.number(),
  energy: z.number(),
  importance: z.number().describe('raised by the promotion gate only'),
  last_recalled_at: text.nullable(),
});

/** The evidence counts of a memory at T. */
const evidenceCounts = z.object({
  support_count: count.describe('supports that are neither echoes nor self-supports'),
  refute_count: count,
  distinct_sources: count.describe('distinct lineages among the counted supports'),
  echo_count: count,
  self_support_count: count,
  first_seen: text.nullable(),
  last_support: text.nullable(),
  last_refute: text.nullable(),
});

/** A memory's state at T: class and confidence with the counts behind them, the warrant beside them. */
const memoryState = evidenceCounts.extend({
  hash: text,
  proposition_id: text,
  view_id: text,
  text,
  class: epistemicClass,
  project: text.nullable(),
  source: text.describe("the writer's principal (or principal/sub-source)"),
  confidence,
  warrant: warrantAxesSchema,
  independent_lineage_count: count,
  evaluated_at: text,
});

/** A link's answer (`memory_evidence_link`, `memory_evidence_refute`, and each of `memory_store`'s supports). */
const linkResult = z.object({
  support: text,
  target: text,
  polarity: z.enum(POLARITIES),
  status: z.enum(['linked', 'unchanged']),
  echo: z.boolean().describe('a near copy from the same source: recorded, but it adds no source'),
  echo_of: text.nullable(),
  self_support: z.boolean().describe("from the target's own source or lineage: it counts for nothing"),
  similarity: z.number(),
  target_confidence: z.number(),
  target_distinct_sources: count,
});

const recallRow = z.object({
  hash: text,
  text,
  class: epistemicClass,
  confidence,
  project: text.nullable(),
  source: text,
  score: z.number().describe('the text match, 0-1 (1 with no query)'),
  salience,
});

const contextRow = z.object({
  hash: text,
  text,
  class: epistemicClass,
  confidence,
  acceptance: warrantAxesSchema.shape.acceptance,
  conflict: warrantAxesSchema.shape.conflict,
  disputed: z.boolean(),
  salience,
});

const contextPart = z.object({
  label: text,
  rows: z.array(contextRow),
  omitted: count.describe('memories that qualified but were left out by the row or byte bound'),
});

/** A page of a memory's events, oldest first. */
const eventPage = z.object({
  events: z.array(z.union([ledgerEntrySchema, shortenedItem])),
  events_total: count.describe('every event of the answer, before paging'),
  events_next_cursor: z.number().int().nullable().describe('pass as events_after for the next page; null on the last'),
});

/** The hash chain's verification: ok, its length and head, or the first bad index and why (a store may add fields). */
const chainVerification = z.looseObject({
  ok: z.boolean(),
  length: count,
  head: text.optional(),
  firstBadIndex: z.number().int().optional(),
  reason: text.optional(),
  detail: text.optional(),
});

/** The memory tools, in `tools/list` order. */
export const MEMORY_TOOL_SPECS = {
  memory_store: {
    name: 'memory_store',
    title: 'Store a memory with its epistemic class',
    description:
      'Store a memory as evidence records with its class (observation, evidence, inference, hypothesis); with supports, link it as support of ' +
      'those memories (only observations and evidence may support; an inference or hypothesis as support is refused). Its source is your principal ' +
      "(who the server knows you as), never an argument: observation and evidence need the operator's observer grant, anything else you conclude is " +
      'an inference or hypothesis. A near copy of what you stored before adds no source (an echo). Answers hash, class, source and confidence.',
    role: 'ingest',
    input: z.object({
      text: z.string().min(1).max(FIELD_LIMITS.text).describe('the memory, one statement'),
      epistemic_class: epistemicClass.describe(
        'observation (read from a tool, a document, the user), evidence (an observation linked to a claim), inference (your conclusion), hypothesis (to be checked)',
      ),
      supports: z.array(hash).max(FIELD_LIMITS.array).optional().describe('memories this one supports: only an observation or evidence may support'),
      project,
      source: z
        .string()
        .min(1)
        .max(FIELD_LIMITS.kind)
        .optional()
        .describe(
          "a sub-source the operator allowed your principal (a tool, a sensor): stored as '<principal>/<source>'; omit it and the memory's source is your principal",
        ),
      derived_from: z.array(hash).max(FIELD_LIMITS.array).optional().describe('memories an inference or hypothesis was derived from (lineage, not support)'),
    }),
    output: memoryState.extend({ status: z.enum(['stored', 'unchanged']), links: z.array(linkResult) }),
  },
  memory_recall: {
    name: 'memory_recall',
    title: 'Recall memories with class and confidence',
    description:
      'Recall memories by text (or the most salient). Every row has class and confidence (0-100 from independent observations, never from recall). ' +
      'Recall makes a memory hot, not better founded: present an inference or hypothesis as such. ' +
      'A page holds at most limit rows and 64 KiB (a longer row is shortened, truncated: true); next_cursor, passed as cursor, gives the next page.',
    role: 'read',
    input: z.object({
      query: z.string().max(FIELD_LIMITS.text).optional().describe('text to match; omit for the most salient memories'),
      project,
      class: z.union([epistemicClass, z.array(epistemicClass)]).optional(),
      confidence_min: z.number().min(0).max(100).optional(),
      limit: z.number().int().min(1).max(1000).optional(),
      evaluated_at: at,
      cursor: MEMORY_ARGUMENT_FIELDS.cursor,
    }),
    output: z.object({
      rows: z.array(z.union([recallRow, shortenedItem])),
      next_cursor: text.nullable().describe('pass as cursor for the next page; null when no row follows'),
    }),
  },
  memory_auto_context: {
    name: 'memory_auto_context',
    title: 'Context before a turn: hot and confirmed apart',
    description:
      'The memories to keep in mind before a turn, in two labelled parts: "hot" (most salient, each with class and confidence: not evidence) and ' +
      '"confirmed" (warrant ACCEPTED or confidence at or above the threshold); with a query, the memories recalled for it first. ' +
      '`text` is the whole context as prompt text, every label included. Never present a hot memory as confirmed.',
    role: 'read',
    input: z.object({
      query: z.string().max(FIELD_LIMITS.text).optional().describe('the current message: the memories recalled for it are shown first, as their own part'),
      project,
      limit: z.number().int().min(0).max(1000).optional(),
      evaluated_at: at,
    }),
    output: z.object({
      evaluated_at: text,
      project: text.nullable(),
      hot: contextPart.describe('the most salient memories: hot, not evidence'),
      confirmed: contextPart.describe('warrant ACCEPTED or confidence at or above the threshold'),
      recalled: z
        .object({ label: text, query: text, rows: z.array(contextRow) })
        .nullable()
        .describe('the memories recalled for the query; null without one'),
      text: text.describe('the whole context as prompt text, every label included'),
    }),
  },
  memory_evidence_show: {
    name: 'memory_evidence_show',
    title: "A memory's evidence",
    description:
      "A memory's class, confidence and the counts behind it (supports, refutations, distinct sources, first/last seen) beside its warrant, its salience and its events " +
      '(a page of them, oldest first: events_total counts them all, events_next_cursor passed as events_after gives the next).',
    role: 'read',
    input: z.object({ hash, evaluated_at: at, events_after: MEMORY_ARGUMENT_FIELDS.events_after }),
    output: memoryState.extend({ promoted: z.boolean(), salience: salience.extend({ promoted: z.boolean() }) }).extend(eventPage.shape),
  },
  memory_evidence_link: {
    name: 'memory_evidence_link',
    title: 'Link an observation as support',
    description: 'Link an observation (or evidence) as support of a memory. A near copy from the same source is an echo: recorded, but it adds no source.',
    role: 'ingest',
    input: z.object({ support: hash, target: hash }),
    output: linkResult,
  },
  memory_evidence_refute: {
    name: 'memory_evidence_refute',
    title: 'Link an observation as refutation',
    description: 'Link an observation (or evidence) as refutation of a memory: confidence falls, the warrant shows the conflict.',
    role: 'ingest',
    input: z.object({ refuter: hash, target: hash }),
    output: linkResult,
  },
  memory_evidence_audit: {
    name: 'memory_evidence_audit',
    title: 'Audit the memory events',
    description:
      "Verify the ledger's hash chain (memory events included) and list a memory's events, or every memory event, a page at a time " +
      '(events_total counts them all, events_next_cursor passed as events_after gives the next).',
    role: 'read',
    input: z.object({ hash: hash.optional(), events_after: MEMORY_ARGUMENT_FIELDS.events_after }),
    output: eventPage.extend({ chain: chainVerification }),
  },
  memory_evidence_gates: {
    name: 'memory_evidence_gates',
    title: 'Promotion gate statistics',
    description: 'Promotions allowed and blocked by the promotion gate, by reason, read from the chain (optionally between from and to).',
    role: 'read',
    input: z.object({ from: z.string().max(FIELD_LIMITS.kind).optional(), to: z.string().max(FIELD_LIMITS.kind).optional() }),
    output: z.object({
      allowed: count,
      blocked: count,
      by_reason: z.record(z.string(), z.number().int()),
      from: text.nullable(),
      to: text.nullable(),
    }),
  },
} as const;
