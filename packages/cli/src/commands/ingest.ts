/**
 * `ewp ingest`: the operator's path from JSON files into a ledger (docs/spec/store-contract.md §4), so agents can be
 * served read-only. Views are decoded and checked, then committed in batches through the store's
 * batched path; a batch with a refused view is stored view by view, so one bad view never stops the others.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type EvidenceView, isTrustedOrigin, parseEvaluatedAt, REFERENCE_V2, type Warrant, warrantNow } from '@ewp/core';
import { type EvidenceStore, sealView } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { describeError, readViews } from '../view-file.js';

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
    const axes =
      typeof w === 'string' ? [`(warrant not computed: ${w})`, '', '', '', ''] : [w.acceptance, w.conflict, w.verification, w.currency, w.sufficiency];
    return [r.view.proposition_id, r.view.view_id, r.status, ...axes];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [`warrant at ${evaluatedAt} (EWP-0.2.0, reference-v2)`, line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ''].join('\n');
}

/** Rows of the closing summary table; beyond them the table says how many more (a 10M-view ingest keeps no 10M rows). */
const SUMMARY_ROWS = 1000;
/** Least time between two redraws of the progress line. */
const PROGRESS_EVERY_MS = 200;

/** The progress line, redrawn in place on a terminal: views so far and, for files, the share of bytes read. */
function progressLine(views: number, refused: number, bytes: number, totalBytes: number | undefined, width = 30): string {
  const counts = `${views.toLocaleString('en-US')} views${refused > 0 ? ` (${refused.toLocaleString('en-US')} refused)` : ''}`;
  if (totalBytes === undefined || totalBytes === 0) return `\r\x1b[K${counts}`;
  const share = Math.min(1, bytes / totalBytes);
  const filled = Math.round(share * width);
  return `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}, ${Math.floor(share * 100)}% of ${(totalBytes / 2 ** 20).toFixed(1)} MB`;
}

/** Sizes of the named files, when all are regular files (stdin has none). */
async function totalSize(files: readonly string[], cwd: string): Promise<number | undefined> {
  let total = 0;
  for (const file of files) {
    if (file === '-') return undefined;
    try {
      const s = await stat(resolve(cwd, file));
      if (!s.isFile()) return undefined;
      total += s.size;
    } catch {
      return undefined;
    }
  }
  return total;
}

export const ingestCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('ingest', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length === 0) {
    return usageError('ingest', 'no input files (give files, or - for stdin)', io);
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
    return usageError('ingest', `--batch must be a positive integer, got ${JSON.stringify(values.batch)}`, io);
  }
  const attest = values['attest-trusted-origins'] ?? false;
  const tty = io.stderr.isTTY === true;
  const totalBytes = tty ? await totalSize(positionals, io.cwd) : undefined;
  /** The first SUMMARY_ROWS stored views, for the closing table; the rest are only counted. */
  const summary: Stored[] = [];
  let storedCount = 0;
  let unchangedCount = 0;
  let failed = 0;
  let seen = 0;
  let bytesRead = 0;
  let lastDraw = 0;
  /** Per-view lines of the current batch, written in one write after it commits. */
  let lines = '';
  const drawProgress = (force = false) => {
    if (!tty) return;
    const now = Date.now();
    if (!force && now - lastDraw < PROGRESS_EVERY_MS) return;
    lastDraw = now;
    io.stderr.write(progressLine(seen, failed, bytesRead, totalBytes));
  };
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
    if (status === 'stored') storedCount += 1;
    else unchangedCount += 1;
    if (summary.length < SUMMARY_ROWS) summary.push({ view, status, warrant });
    if (!tty) {
      const axes =
        typeof warrant === 'string'
          ? ` (warrant not computed: ${warrant})`
          : ` acceptance=${warrant.acceptance} conflict=${warrant.conflict} verification=${warrant.verification} currency=${warrant.currency} sufficiency=${warrant.sufficiency}`;
      lines += `stored ${view.proposition_id} view=${view.view_id}${status === 'unchanged' ? ' (unchanged)' : ''} ${axes}\n`;
    }
  };
  /** Write the per-view lines of what was just committed, waiting for a lagging reader. */
  const writeLines = async () => {
    if (lines === '') return;
    const text = lines;
    lines = '';
    if (!io.stdout.write(text)) await new Promise((done) => io.stdout.once('drain', done));
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
        const results = await many.call(
          s,
          batch.map((b) => b.view),
        );
        for (const [i, r] of results.entries()) report((batch[i] as { view: EvidenceView }).view, r.status);
        await writeLines();
        return;
      } catch (error) {
        if (describeError(error).code === 'EWP_REFUSE_LEDGER_UNAVAILABLE') {
          io.stderr.write(`ewp ingest: unusable ledger: ${describeError(error).message}\n`);
          unusable = true;
          return;
        }
      }
    }
    for (const b of batch) if (!(await putOne(s, b.label, b.view))) break;
    await writeLines();
  };
  let batch: { label: string; view: EvidenceView }[] = [];
  reading: for (const file of positionals) {
    // Read as a stream: a batch is committed before more of the file is read, so memory stays bounded.
    for await (const items of readViews(file, io.cwd, io.stdin, (n) => {
      bytesRead += n;
    })) {
      for (const item of items) {
        seen += 1;
        if (item.error) {
          fail(item.label, item.error);
          continue;
        }
        let view: EvidenceView;
        try {
          // Sealed: the store takes it as decoded instead of decoding it again.
          view = sealView(item.value);
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
          if (unusable) break reading;
        }
      }
      drawProgress();
    }
  }
  await flush(batch);
  if (tty) io.stderr.write(`${progressLine(seen, failed, bytesRead, totalBytes)}\n`);
  await store?.close();
  if (summary.length > 0) {
    const more = storedCount + unchangedCount - summary.length;
    io.stdout.write(`\n${renderSummary(summary, evaluatedAt)}${more > 0 ? `… and ${more.toLocaleString('en-US')} more view(s)\n` : ''}`);
    if (more > 0) io.stdout.write(`${storedCount.toLocaleString('en-US')} stored, ${unchangedCount.toLocaleString('en-US')} unchanged\n`);
  }
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
