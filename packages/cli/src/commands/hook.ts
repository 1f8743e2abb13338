/**
 * `ewp hook pre-tool-use`: a Claude Code `PreToolUse` hook. Reads the event JSON on stdin, maps the
 * tool call to a proposition and an action with the tool mapping file (`--map`, see @ewp/claude-code),
 * decides with the shared warrant gate on the ledger, and prints the answer
 * (`hookSpecificOutput.permissionDecision` allow / ask / deny with the reason). Whatever cannot be
 * used (input, arguments, mapping file, ledger) is answered deny with the reason: it fails closed,
 * and always exits 0 so that Claude Code reads the answer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EwpError, parseJsonStrict } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { undecodableArgument } from '../argv-text.js';
import { type CliIO, type Command, EXIT_OK } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore } from '../open-store.js';

const HELP = `usage: ewp hook pre-tool-use --map tools.json (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>)

A Claude Code PreToolUse hook: the event JSON on stdin, the answer on stdout
({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow|ask|deny",
"permissionDecisionReason":"..."}}). The mapping file names, per tool name pattern, the proposition
the call depends on and the action it is (@ewp/claude-code README); with "no_evidence": "ask" a call
whose proposition has nothing recorded yet is asked of a human, not denied. Input it cannot read (not JSON,
not UTF-8, a key given twice, more than 16 MiB), unusable arguments, a bad mapping file or a missing
ledger are answered deny with the reason. Exit: always 0.

In .claude/settings.json:
  {"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command",
    "command":"npx -y @ewp/cli hook pre-tool-use --map .claude/ewp-tools.json --db ewp.sqlite"}]}]}}
`;

/** The most stdin the hook reads: far more than any PreToolUse event; more is denied unread, never buffered whole. */
export const HOOK_STDIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** The whole of `stream` as bytes, or undefined once it passes `limit` (the stream is then closed, unread). */
async function readAtMost(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    // Leaving the loop destroys the stream: the writer gets EPIPE rather than a reader that never comes.
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** An error as the reason of a denial: a typed refusal's code first. */
function message(error: unknown): string {
  if (EwpError.isInstance(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export const hookCommand: Command = async (args: string[], io: CliIO) => {
  try {
    return await answerHook(args, io);
  } catch (error) {
    // Anything unforeseen (the gate's package failing to load included) is still a denial with its
    // reason and exit 0: an exit without an answer would let Claude Code run the tool.
    const reason = `EWP: the hook failed (${message(error)}); the call is refused`;
    io.stderr.write(`ewp hook: ${reason}\n`);
    io.stdout.write(
      `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } })}\n`,
    );
    return EXIT_OK;
  }
};

async function answerHook(args: string[], io: CliIO): Promise<number> {
  // Imported here, so that `ewp --help` and the other verbs never load the gate.
  const { answerPreToolUse, denyAnswer, parseToolMapping } = await import('@ewp/claude-code');
  const answer = (value: object): number => {
    io.stdout.write(`${JSON.stringify(value)}\n`);
    return EXIT_OK;
  };
  const refuse = (reason: string): number => {
    io.stderr.write(`ewp hook: ${reason}\n`);
    return answer(denyAnswer(reason));
  };

  const undecodable = undecodableArgument(args);
  if (undecodable !== undefined) return refuse(`unusable arguments: ${undecodable}`);
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(args));
  } catch (error) {
    return refuse(`unusable arguments: ${message(error)}`);
  }
  if (values.help) {
    io.stdout.write(HELP);
    return EXIT_OK;
  }
  if (positionals[0] !== 'pre-tool-use' || positionals.length !== 1) return refuse('expected the hook name "pre-tool-use"');
  if (values.map === undefined) return refuse('no tool mapping: pass --map <file.json>');

  // Read the event first: Claude Code waits for the hook to consume its stdin.
  let event: Buffer | undefined;
  try {
    event = await readAtMost(io.stdin, HOOK_STDIN_LIMIT_BYTES);
  } catch (error) {
    return refuse(`unreadable hook input: ${message(error)}`);
  }
  if (event === undefined) return refuse(`the hook input is larger than ${HOOK_STDIN_LIMIT_BYTES / (1024 * 1024)} MiB`);
  let mapping: ReturnType<typeof parseToolMapping>;
  try {
    // Relative to the directory the CLI runs in, as every other path option; read strictly (a key
    // given twice would silently change the rule).
    mapping = parseToolMapping(parseJsonStrict(readFileSync(resolve(io.cwd, values.map))));
  } catch (error) {
    return refuse(`unusable tool mapping ${values.map}: ${message(error)}`);
  }
  const spec = ledgerSpec(values, io.cwd);
  // A missing ledger is refused, never created: an empty one would deny everything without saying why.
  const path = spec.db ?? spec.jsonDir;
  if (path !== undefined && !existsSync(path)) return refuse(`no ledger at ${path}`);
  let store: EvidenceStore;
  try {
    store = await openStore(spec);
  } catch (error) {
    return refuse(`unusable ledger: ${message(error)}`);
  }
  try {
    return answer(await answerPreToolUse(event, { mapping, store }));
  } catch (error) {
    // Whatever the gate could not do is a refusal, never an exit without an answer (fail closed).
    return refuse(`the call could not be decided: ${message(error)}`);
  } finally {
    await store.close().catch(() => undefined);
  }
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { ...LEDGER_OPTIONS, map: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}
