/**
 * `ewp ingest`: the operator's path from JSON files into a ledger (STORES.md §4), so agents can be
 * served read-only. Each view is decoded, checked and stored in its own transaction; one bad view
 * never stops the others.
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
  let store: EvidenceStore;
  try {
    store = await openStore({
      ...ledgerSpec(values, io.cwd),
    });
  } catch (error) {
    const prefix = error instanceof StoreSpecError ? '' : 'unusable ledger: ';
    io.stderr.write(`ewp ingest: ${prefix}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  const attest = values['attest-trusted-origins'] ?? false;
  const tty = io.stderr.isTTY === true;
  const items: Item[] = [];
  for (const file of positionals) items.push(...(await readViewFile(file, io.cwd)));
  const stored: Stored[] = [];
  let failed = 0;
  const fail = (label: string, e: { code: string; path: string | undefined; message: string }) => {
    failed += 1;
    if (tty) io.stderr.write('\r\x1b[K');
    io.stderr.write(`FAIL ${label}: ${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}\n`);
  };
  let unusable: Error | undefined;
  for (const [n, item] of items.entries()) {
    if (tty) io.stderr.write(progressLine(n, items.length));
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
    let status: 'stored' | 'unchanged';
    try {
      status = (await store.put(view)).status;
    } catch (error) {
      const e = describeError(error);
      fail(item.label, e);
      if (e.code === 'EWP_REFUSE_LEDGER_UNAVAILABLE') {
        unusable = error as Error;
        break;
      }
      continue;
    }
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
  }
  if (tty) io.stderr.write(`${progressLine(items.length, items.length)}\n`);
  await store.close();
  if (stored.length > 0) io.stdout.write(`\n${renderSummary(stored, evaluatedAt)}`);
  if (failed > 0) io.stderr.write(`${failed} view(s) not stored\n`);
  if (unusable) return EXIT_USAGE;
  return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      'attest-trusted-origins': { type: 'boolean' },
      'evaluated-at': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
