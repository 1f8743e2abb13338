import { parseArgs } from 'node:util';
import { decodeView, EwpError, normalizedWarrantViewJson, normalizeWarrantView, parseJson, REFERENCE_V2, type WarrantView, warrantNow } from '@ewp/core';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';
import { renderWarrantTable } from '../render/warrant-table.js';
import { DEFAULT_MAX_VIEW_BYTES, describeError, fileError, inputChunks, MAX_VIEW_BYTES_OPTION, parseByteSize, readLines, readViews } from '../view-file.js';

const HELP = `usage: ewp eval <view.json> [--at T] [--json] [--max-view-bytes N]
       ewp eval --jsonl [--max-view-bytes N] < in.jsonl > out.jsonl

Evaluate EvidenceViews under EWP-0.2.0 / reference-v2. Input is UTF-8.

  <view.json>   a file holding one view, a list of views, {"views": [...]}, or JSONL
  --at T        the instant to evaluate at (default: each view's own "evaluated_at" key)
  --json        print the normalized WarrantViews as JSON instead of a table
  --jsonl       batch mode: one {"view": {...}, "evaluated_at": "..."} per stdin line; one
                {"ok": true, "warrant": {...}} or {"ok": false, "error": {"code", "message", "path"}}
                per stdout line, in input order. Blank lines are skipped; bad lines never stop the run.
  --max-view-bytes N  longest line, list element or document read (default 64MiB; suffixes KiB, MiB,
                GiB); a longer one, or bytes that are not UTF-8, stop reading that input (exit 2)

Exit: 0 all evaluated, 1 some view or line refused, 2 bad arguments or an input that could not be read on.
`;

/** One JSONL result line (the public batch contract, docs/cli.md). */
export type EvalLineResult = { ok: true; warrant: WarrantView } | { ok: false; error: { code: string; message: string; path: string | null } };

function refusal(error: unknown, pathPrefix: string): EvalLineResult {
  if (error instanceof EwpError) {
    const path = error.path === undefined ? null : error.path.startsWith('$.evaluated_at') ? error.path : pathPrefix + error.path.slice(1);
    return { ok: false, error: { code: error.code, message: describeError(error).message, path } };
  }
  throw error;
}

/**
 * Evaluate one batch line: `{"view": ..., "evaluated_at": ...}`; without an `evaluated_at`
 * key, the view's own `evaluated_at` is used (a present `null` is used as null and refused).
 */
export function evaluateLine(line: string): EvalLineResult {
  const result = evaluateLineRaw(line);
  return result.ok ? { ok: true, warrant: normalizeWarrantView(result.warrant) } : result;
}

/** The line's JSONL result text: `JSON.stringify(evaluateLine(line))`, with the warrant written directly. */
export function evaluateLineJson(line: string): { ok: boolean; json: string } {
  const result = evaluateLineRaw(line);
  return result.ok ? { ok: true, json: `{"ok":true,"warrant":${normalizedWarrantViewJson(result.warrant)}}` } : { ok: false, json: JSON.stringify(result) };
}

/** {@link evaluateLine} before normalization. */
function evaluateLineRaw(line: string): EvalLineResult {
  let input: unknown;
  try {
    input = parseJson(line);
  } catch (error) {
    return refusal(error, '$');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, error: { code: 'NOT_AN_OBJECT', message: 'each line must be a JSON object {"view": ..., "evaluated_at": ...}', path: '$' } };
  }
  const record = input as Record<string, unknown>;
  if (!Object.hasOwn(record, 'view')) {
    const bare = Object.hasOwn(record, 'proposition_id');
    return {
      ok: false,
      error: {
        code: 'MISSING_FIELD',
        message: bare
          ? 'this line is a bare view; --jsonl lines are {"view": <view>, "evaluated_at": ...}: wrap it'
          : 'each line must be a JSON object {"view": ..., "evaluated_at": ...}',
        path: '$.view',
      },
    };
  }
  try {
    const view = decodeView(record.view);
    const rawView = record.view as Record<string, unknown>;
    const at = Object.hasOwn(record, 'evaluated_at') ? record.evaluated_at : rawView.evaluated_at;
    return { ok: true, warrant: warrantNow(view, REFERENCE_V2, at as string) };
  } catch (error) {
    return refusal(error, '$.view');
  }
}

/**
 * Stream stdin to stdout: lines are read a chunk at a time and each chunk's results are written in one
 * write, waiting for the reader when it lags, so memory stays bounded by a chunk whatever the input size.
 */
async function runJsonl(io: CliIO, maxLine: number): Promise<number> {
  let failed = 0;
  try {
    for await (const lines of readLines(inputChunks(io.stdin), maxLine)) {
      let out = '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        const result = evaluateLineJson(line);
        if (!result.ok) failed++;
        out += `${result.json}\n`;
      }
      if (out !== '' && !io.stdout.write(out)) await new Promise((resolve) => io.stdout.once('drain', resolve));
    }
  } catch (error) {
    // Bytes that are not UTF-8, or a line over the limit: the input cannot be read on.
    const stop = fileError(error);
    if (stop === undefined) throw error;
    io.stderr.write(`ewp eval: stdin: refused [${stop.code}] ${stop.message}\n`);
    return EXIT_USAGE;
  }
  return failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
}

/** `ewp eval`: a readable table of the five axes and the reasons, or `--jsonl` batch mode. */
export const evalCommand: Command = async (args, io) => {
  const parsed = parseVerbArguments('eval', HELP, io, () => parseOptions(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const maxViewBytes = values[MAX_VIEW_BYTES_OPTION] === undefined ? DEFAULT_MAX_VIEW_BYTES : parseByteSize(values[MAX_VIEW_BYTES_OPTION]);
  if (maxViewBytes === undefined) {
    return usageError('eval', `--${MAX_VIEW_BYTES_OPTION}: expected a size such as 65536 or 64MiB, got ${JSON.stringify(values[MAX_VIEW_BYTES_OPTION])}`, io);
  }
  if (values.jsonl) {
    if (positionals.length > 0) {
      return usageError('eval', '--jsonl reads stdin; do not pass files', io);
    }
    return runJsonl(io, maxViewBytes);
  }
  if (positionals.length === 0) {
    return usageError('eval', 'which view? give a file, or - for stdin', io);
  }
  let failed = 0;
  let unreadable = false;
  const results: WarrantView[] = [];
  for (const file of positionals) {
    for await (const items of readViews(file, io.cwd, io.stdin, { maxViewBytes }))
      for (const item of items) {
        // A file of one view is named by its file alone.
        const where = item.only ? file : item.label;
        if (item.error) {
          if (item.stopsFile) unreadable = true;
          else failed++;
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
  return unreadable ? EXIT_USAGE : failed > 0 ? EXIT_SOME_FAILED : EXIT_OK;
};

function parseOptions(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      at: { type: 'string' },
      json: { type: 'boolean' },
      jsonl: { type: 'boolean' },
      'max-view-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
