/**
 * `ewp ingest`: the operator's path from JSON files into a ledger (STORES.md §4), so agents can be
 * served read-only. Views are decoded and checked, then committed in batches through the store's
 * batched path; a batch with a refused view is stored view by view, so one bad view never stops the others.
 */
import { parseArgs } from 'node:util';
import {
  decodeView,
  type EvidenceView,
  isTrustedOrigin,
  parseEvaluatedAt,
  REFERENCE_V2,
  type Warrant,
  warrantNow,
} from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments } from '../verb-arguments.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { describeError, type Item, readViewFile } from '../view-file.js';

const HELP = `usage: ewp ingest <files...> (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>)
                  [--attest-trusted-origins] [--evaluated-at T]

Store EvidenceViews in a ledger. Each file holds one view, a JSON list of views, an object with a
"views" list, or JSONL (one view per line).

  --db PATH                   SQLite ledger (created with its directories if missing)
  --pg URL                    PostgreSQL ledger (postgres://user@host:port/db?schema=name)
  --json-dir DIR              JSON-file ledger directory
  --attest-trusted-origins    store views whose records claim a trusted origin (tool, document, human,
                              api, vendor, sensor): the operator vouches that those origins are real
  --evaluated-at T            the instant of the summary table (default: now, UTC); storing never uses it
  --batch N                   views per transaction on the store's batched path (default 500); a refused
                              view is retried alone, so it never rolls back its neighbours
  -                           as a file name: read stdin

Exit: 0 every view stored (identical re-ingests included), 1 some view refused, 2 unusable ledger or arguments.
`;


/** The first record path whose source claims a trusted origin, if any. */
export function trustedOriginPath(view: EvidenceView): string | undefined {
  const lists: [string, { source: { origin_type: string } }[]][] = [
    ['assertions', view.assertions],
    ['evidence', view.evidence],
    ['checks', view.checks],
  ];
  for (const [name, records] of lists) {
    const i = records.findIndex((r) => isTrustedOrigin(r.source.origin_type));
    if (i !== -1) return `$.${name}[${i}].source.origin_type`;
  }
  return undefined;
}

interface Stored {
  view: EvidenceView;
  status: 'stored' | 'unchanged';
  warrant: Warrant | string;
}

/** The summary table: one row per stored view with its five axes at T. */
export function renderSummary(rows: readonly Stored[], evaluatedAt: string): string {
  const header = ['proposition', 'view', 'status', 'acceptance', 'conflict', 'verification', 'currency', 'sufficiency'];
  const body = rows.map((r) => {
    const w = r.warrant;
    const axes = typeof w === 'string' ? [`(warrant not computed: ${w})`, '', '', '', ''] : [w.acceptance, w.conflict, w.verification, w.currency, w.sufficiency];
    return [r.view.proposition_id, r.view.view_id, r.status, ...axes];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [`warrant at ${evaluatedAt} (EWP-0.2.0, reference-v2)`, line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ''].join('\n');
}

/** A one-line progress bar, redrawn in place on a terminal. */
function progressLine(done: number, total: number, width = 30): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} views`;
}

export const ingestCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('ingest', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) {
    io.stderr.write(`ewp ingest: no input files\n\n${HELP}`);
    return EXIT_USAGE;
  }
  // T is checked before the ledger is opened: a bad T creates nothing.
  const evaluatedAt = values['evaluated-at'] ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  try {
    parseEvaluatedAt(evaluatedAt);
  } catch (error) {
    io.stderr.write(`ewp ingest: --evaluated-at: ${describeError(error).message}; nothing stored\n`);
    return EXIT_USAGE;
  }
  const batchSize = Number(values.batch ?? DEFAULT_BATCH);
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    io.stderr.write(`ewp ingest: --batch must be a positive integer, got ${JSON.stringify(values.batch)}\n`);
    return EXIT_USAGE;
  }
  const attest = values['attest-trusted-origins'] ?? false;
  const tty = io.stderr.isTTY === true;
  const items: Item[] = [];
  // One push per item: spreading a file of 125,000+ views into push() overflows the call stack.
  for (const file of positionals) for (const item of await readViewFile(file, io.cwd, io.stdin)) items.push(item);
  const stored: Stored[] = [];
  let failed = 0;
  const fail = (label: string, e: { code: string; path: string | undefined; message: string }) => {
    failed += 1;
    if (tty) io.stderr.write('\r\x1b[K');
    io.stderr.write(`FAIL ${label}: ${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}\n`);
  };
  // The ledger is opened on the first view worth storing: a run with no valid view creates nothing.
  let store: EvidenceStore | undefined;
  let unusable = false;
  const open = async (): Promise<EvidenceStore | undefined> => {
    if (store !== undefined || unusable) return store;
    try {
      store = await openStore({ ...ledgerSpec(values, io.cwd) });
    } catch (error) {
      const prefix = StoreSpecError.isInstance(error) ? '' : 'unusable ledger: ';
      io.stderr.write(`ewp ingest: ${prefix}${(error as Error).message}\n`);
      unusable = true;
    }
    return store;
  };
  const report = (view: EvidenceView, status: 'stored' | 'unchanged') => {
    let warrant: Warrant | string;
    try {
      warrant = warrantNow(view, REFERENCE_V2, evaluatedAt).warrant;
    } catch (error) {
      warrant = describeError(error).message;
    }
    stored.push({ view, status, warrant });
    if (!tty) {
      const axes =
        typeof warrant === 'string'
          ? ` (warrant not computed: ${warrant})`
          : ` acceptance=${warrant.acceptance} conflict=${warrant.conflict} verification=${warrant.verification} currency=${warrant.currency} sufficiency=${warrant.sufficiency}`;
      io.stdout.write(`stored ${view.proposition_id} view=${view.view_id}${status === 'unchanged' ? ' (unchanged)' : ''} ${axes}\n`);
    }
  };
  /** Store one view alone; false when the ledger itself failed (one error line, exit 2). */
  const putOne = async (s: EvidenceStore, label: string, view: EvidenceView): Promise<boolean> => {
    try {
      report(view, (await s.put(view)).status);
      return true;
    } catch (error) {
      const e = describeError(error);
      if (e.code === 'EWP_REFUSE_LEDGER_UNAVAILABLE') {
        io.stderr.write(`ewp ingest: unusable ledger: ${e.message}\n`);
        unusable = true;
        return false;
      }
      fail(label, e);
      return true;
    }
  };
  /**
   * Commit a batch in one transaction through the store's batched path. A refusal rolls the whole
   * transaction back, so the batch is then stored view by view: each view stays all-or-nothing and a
   * refused one never takes its neighbours with it.
   */
  const flush = async (batch: { label: string; view: EvidenceView }[]): Promise<void> => {
    if (batch.length === 0 || unusable) return;
    const s = await open();
    if (s === undefined) return;
    const many = (s as { putMany?: (views: readonly unknown[]) => Promise<{ status: 'stored' | 'unchanged' }[]> }).putMany;
    if (typeof many === 'function' && batch.length > 1) {
      try {
        const results = await many.call(s, batch.map((b) => b.view));
        results.forEach((r, i) => report((batch[i] as { view: EvidenceView }).view, r.status));
        return;
      } catch (error) {
        if (describeError(error).code === 'EWP_REFUSE_LEDGER_UNAVAILABLE') {
          io.stderr.write(`ewp ingest: unusable ledger: ${describeError(error).message}\n`);
          unusable = true;
          return;
        }
      }
    }
    for (const b of batch) if (!(await putOne(s, b.label, b.view))) return;
  };
  let batch: { label: string; view: EvidenceView }[] = [];
  for (const [n, item] of items.entries()) {
    if (unusable) break;
    if (tty && n % 256 === 0) io.stderr.write(progressLine(n, items.length));
    if (item.error) {
      fail(item.label, item.error);
      continue;
    }
    let view: EvidenceView;
    try {
      view = decodeView(item.value);
    } catch (error) {
      fail(item.label, describeError(error));
      continue;
    }
    const trusted = trustedOriginPath(view);
    if (trusted !== undefined && !attest) {
      fail(item.label, {
        code: 'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
        path: trusted,
        message: 'a trusted origin needs --attest-trusted-origins (the operator vouches that it is real)',
      });
      continue;
    }
    batch.push({ label: item.label, view });
    if (batch.length >= batchSize) {
      await flush(batch);
      batch = [];
    }
  }
  await flush(batch);
  if (tty) io.stderr.write(`${progressLine(items.length, items.length)}\n`);
  await store?.close();
  if (stored.length > 0) io.stdout.write(`\n${renderSummary(stored, evaluatedAt)}`);
  if (unusable) return EXIT_USAGE;
  if (store === undefined && failed > 0) io.stderr.write('no view was valid: no ledger was opened or created\n');
  if (failed > 0) io.stderr.write(`${failed} view(s) not stored\n`);
  return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};

/** Views per transaction on the batched path (tunable with --batch). */
const DEFAULT_BATCH = 500;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      'attest-trusted-origins': { type: 'boolean' },
      'evaluated-at': { type: 'string' },
      batch: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
