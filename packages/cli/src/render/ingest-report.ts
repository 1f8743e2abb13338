/**
 * What `ewp ingest` prints: a line per stored view (stdout, when stderr is not a terminal), a
 * progress line (stderr, on a terminal), one line per refusal (stderr), and the closing table of
 * the five axes at T. Counts what it was told, so the command only reads, writes and reports.
 */
import { type EvidenceView, REFERENCE_V2, type Warrant, warrantNow } from '@ewp/core';
import type { ItemError } from '../view-file.js';
import { describeError } from '../view-file.js';

/** A stored view's row of the closing table. */
interface StoredRow {
  view: EvidenceView;
  status: 'stored' | 'unchanged';
  warrant: Warrant | string;
}

/** The closing table: one row per stored view with its five axes at T. */
function renderSummary(rows: readonly StoredRow[], evaluatedAt: string): string {
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

/** The progress line, redrawn in place on a terminal: views so far and, for files, the share of bytes read. */
function progressLine(views: number, refused: number, bytes: number, totalBytes: number | undefined, width = 30): string {
  const counts = `${views.toLocaleString('en-US')} views${refused > 0 ? ` (${refused.toLocaleString('en-US')} refused)` : ''}`;
  if (totalBytes === undefined || totalBytes === 0) return `\r\x1b[K${counts}`;
  const share = Math.min(1, bytes / totalBytes);
  const filled = Math.round(share * width);
  return `\r\x1b[K[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}, ${Math.floor(share * 100)}% of ${(totalBytes / 2 ** 20).toFixed(1)} MB`;
}

/** Rows of the closing table; beyond them the table says how many more (a 10M-view ingest keeps no 10M rows). */
const SUMMARY_ROWS = 1000;
/** Least time between two redraws of the progress line. */
const PROGRESS_EVERY_MS = 200;

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The report of one ingest run: counts, the per-view lines not yet written, and the closing table's rows. */
export class IngestReport {
  stored = 0;
  unchanged = 0;
  refused = 0;
  /** Views read (refused ones included). */
  seen = 0;
  bytesRead = 0;
  /** Per-view lines of what was committed since the last {@link takeLines}. */
  private lines = '';
  private readonly summary: StoredRow[] = [];
  private lastDraw = 0;

  constructor(
    private readonly stderr: NodeJS.WritableStream,
    private readonly evaluatedAt: string,
    /** stderr is a terminal: a progress line instead of per-view lines. */
    private readonly tty: boolean,
    private readonly totalBytes: number | undefined,
    /** Per-view lines are wanted (stdout is still open). */
    private readonly perViewLines: () => boolean,
  ) {}

  /** A view was committed (or was already stored, identically). */
  committed(view: EvidenceView, status: 'stored' | 'unchanged'): void {
    if (status === 'stored') this.stored += 1;
    else this.unchanged += 1;
    const wantsLine = !this.tty && this.perViewLines();
    if (this.summary.length >= SUMMARY_ROWS && !wantsLine) return;
    let warrant: Warrant | string;
    try {
      warrant = warrantNow(view, REFERENCE_V2, this.evaluatedAt).warrant;
    } catch (error) {
      warrant = describeError(error).message;
    }
    if (this.summary.length < SUMMARY_ROWS) this.summary.push({ view, status, warrant });
    if (wantsLine) {
      const axes =
        typeof warrant === 'string'
          ? ` (warrant not computed: ${warrant})`
          : ` acceptance=${warrant.acceptance} conflict=${warrant.conflict} verification=${warrant.verification} currency=${warrant.currency} sufficiency=${warrant.sufficiency}`;
      this.lines += `stored ${view.proposition_id} view=${view.view_id}${status === 'unchanged' ? ' (unchanged)' : ''} ${axes}\n`;
    }
  }

  /** A view (or the rest of a file) was refused: one line on stderr. */
  refuse(label: string, e: ItemError): void {
    this.refused += 1;
    if (this.tty) this.stderr.write('\r\x1b[K');
    this.stderr.write(`FAIL ${label}: ${e.code}${e.path ? ` at ${e.path}` : ''}: ${e.message}\n`);
  }

  /** The per-view lines gathered since the last call. */
  takeLines(): string {
    const text = this.lines;
    this.lines = '';
    return text;
  }

  /** Redraw the progress line (at most five times a second unless `force`). */
  drawProgress(force = false): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < PROGRESS_EVERY_MS) return;
    this.lastDraw = now;
    this.stderr.write(`${progressLine(this.seen, this.refused, this.bytesRead, this.totalBytes)}${force ? '\n' : ''}`);
  }

  /** The closing table, and the counts when it does not list every view ('' when nothing was stored). */
  closingTable(): string {
    if (this.summary.length === 0) return '';
    const more = this.stored + this.unchanged - this.summary.length;
    return `\n${renderSummary(this.summary, this.evaluatedAt)}${more > 0 ? `… and ${count(more)} more view(s)\n${count(this.stored)} stored, ${count(this.unchanged)} unchanged\n` : ''}`;
  }

  /** One line: what the run did, for when its report on stdout could not be written whole. */
  outcomeLine(): string {
    return `${count(this.seen)} view(s) read: ${count(this.stored)} stored, ${count(this.unchanged)} unchanged, ${count(this.refused)} refused`;
  }
}
