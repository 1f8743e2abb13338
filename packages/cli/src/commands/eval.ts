import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { decodeView, EwpError, normalizeWarrantView, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { renderWarrantTable } from '../render/warrant-table.js';
import { readLines, readViews } from '../view-file.js';
import { type EvaluatedLines, evaluateLines } from './eval-lines.js';
import { EvalPool, evalWorkerScript } from './eval-pool.js';

const HELP = `usage: ewp eval <view.json> [--at T] [--json]
       ewp eval --jsonl < in.jsonl > out.jsonl

Evaluate EvidenceViews under EWP-0.2.0 / reference-v2.

  <view.json>   a file holding one view, a list of views, {"views": [...]}, or JSONL
  --at T        the instant to evaluate at (default: each view's own "evaluated_at" key)
  --json        print the normalized WarrantViews as JSON instead of a table
  --jsonl       batch mode: one {"view": {...}, "evaluated_at": "..."} per stdin line; one
                {"ok": true, "warrant": {...}} or {"ok": false, "error": {"code", "message", "path"}}
                per stdout line, in input order. Blank lines are skipped; bad lines never stop the run.
  --jobs N      --jsonl only: worker threads that evaluate (default: the machine's cores, at most 8;
                1 evaluates on the main thread). Output is the same whatever N.
`;

/** Worker threads by default: one per core, capped where the main thread's reading and writing becomes the limit. */
const DEFAULT_JOBS = Math.max(1, Math.min(availableParallelism(), 8));

/** Text per batch handed to a worker: large enough that messaging costs little per line. */
const BATCH_CHARS = 256 * 1024;
/** Input evaluated on the main thread before the workers start: a small batch never pays their startup. */
const INLINE_CHARS = 1024 * 1024;

/**
 * Stream stdin to stdout: lines are read a chunk at a time and results are written in input order,
 * waiting for the reader when it lags, so memory stays bounded by the batches in flight whatever the
 * input size. With `jobs` > 1, input beyond the first MiB is evaluated by `jobs` worker threads.
 */
async function runJsonl(io: CliIO, jobs: number): Promise<number> {
  let failed = 0;
  const write = async (r: EvaluatedLines) => {
    failed += r.failed;
    if (r.out !== '' && !io.stdout.write(r.out)) await new Promise((resolve) => io.stdout.once('drain', resolve));
  };
  const script = jobs > 1 ? evalWorkerScript() : undefined;
  let pool: EvalPool | undefined;
  const inFlight: Promise<EvaluatedLines>[] = [];
  let batch: string[] = [];
  let batchChars = 0;
  let seen = 0;
  const send = async () => {
    pool ??= new EvalPool(jobs, script as URL);
    inFlight.push(pool.evaluate(batch));
    batch = [];
    batchChars = 0;
    while (inFlight.length >= 2 * jobs) await write(await (inFlight.shift() as Promise<EvaluatedLines>));
  };
  try {
    for await (const lines of readLines(io.stdin)) {
      let chars = 0;
      for (const line of lines) chars += line.length;
      seen += chars;
      if (script === undefined || seen <= INLINE_CHARS) {
        await write(evaluateLines(lines));
        continue;
      }
      for (const line of lines) batch.push(line);
      batchChars += chars;
      if (batchChars >= BATCH_CHARS) await send();
    }
    if (batch.length > 0) await send();
    for (const result of inFlight.splice(0)) await write(await result);
  } finally {
    await pool?.close();
  }
  return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
}

/** `ewp eval`: a readable table of the five axes and the reasons, or `--jsonl` batch mode. */
export const evalCommand: Command = async (args, io) => {
  const parsed = parseVerbArguments('eval', HELP, io, () => parseOptions(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (values.jsonl) {
    if (positionals.length > 0) return usageError('eval', '--jsonl reads stdin; do not pass files', io);
    const jobs = values.jobs === undefined ? DEFAULT_JOBS : Number(values.jobs);
    if (!Number.isSafeInteger(jobs) || jobs < 1 || jobs > 256)
      return usageError('eval', `--jobs takes a whole number from 1 to 256, not ${JSON.stringify(values.jobs)}`, io);
    return runJsonl(io, jobs);
  }
  if (values.jobs !== undefined) return usageError('eval', '--jobs applies to --jsonl only', io);
  if (positionals.length === 0) {
    return usageError('eval', 'which view? give a file, or - for stdin', io);
  }
  let failed = 0;
  const results: WarrantView[] = [];
  for (const file of positionals) {
    for await (const items of readViews(file, io.cwd, io.stdin))
      for (const item of items) {
        // A file of one view is named by its file alone.
        const where = item.only ? file : item.label;
        if (item.error) {
          failed++;
          io.stderr.write(`ewp eval: ${where}: refused [${item.error.code}] ${item.error.message}\n`);
          continue;
        }
        const raw = item.value;
        try {
          const view = decodeView(raw);
          const at = values.at ?? (raw as Record<string, unknown>).evaluated_at;
          if (at === undefined)
            throw new EwpError('BAD_EVALUATED_AT', 'no instant to evaluate at: pass --at T or put "evaluated_at" in the view', '$.evaluated_at');
          const warrant = normalizeWarrantView(warrantNow(view, REFERENCE_V2, at as string));
          results.push(warrant);
          if (!values.json) io.stdout.write(`${renderWarrantTable(warrant)}\n`);
        } catch (error) {
          if (!EwpError.isInstance(error)) throw error;
          failed++;
          io.stderr.write(`ewp eval: ${where}: refused [${error.code}] ${error.message}\n`);
        }
      }
  }
  if (values.json) io.stdout.write(`${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`);
  return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      json: { type: 'boolean' },
      jsonl: { type: 'boolean' },
      jobs: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
