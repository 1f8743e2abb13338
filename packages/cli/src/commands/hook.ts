/**
 * `ewp hook pre-tool-use`: a Claude Code `PreToolUse` hook. Reads the event JSON on stdin, maps the
 * tool call to a claim and an action with the tool mapping file (`--map`, see @ewp/claude-code),
 * decides with the shared warrant gate on the ledger, and prints the answer
 * (`hookSpecificOutput.permissionDecision` allow / ask / deny with the reason). Whatever cannot be
 * used (input, arguments, mapping file, ledger) is answered deny with the reason: it fails closed,
 * and always exits 0 so that Claude Code reads the answer.
 *
 * `ewp hook post-tool-use` / `post-tool-use-failure`: Claude Code's report after the call ran
 * (`PostToolUse`, `PostToolUseFailure`), recorded as the outcome of the call the PreToolUse hook
 * claimed, and its result as an observation on the claims the mapping's `observe` rules name. The
 * tool has run already, so nothing is refused: what cannot be recorded is said on stderr and as a
 * `systemMessage` the user sees, and the exit is 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EwpError, parseJsonStrict } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { undecodableArgument } from '../argv-text.js';
import { type CliIO, type Command, EXIT_OK } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore } from '../open-store.js';
import { readAtMost } from '../read-stream.js';

const HELP = `usage: ewp hook pre-tool-use --map tools.json (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>)
       ewp hook post-tool-use --map tools.json (--db ... | --pg ... | --json-dir ...)
       ewp hook post-tool-use-failure --map tools.json (--db ... | --pg ... | --json-dir ...)

A Claude Code PreToolUse hook: the event JSON on stdin, the answer on stdout
({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow|ask|deny",
"permissionDecisionReason":"..."}}). The mapping file names, per tool name pattern, the claim the
call depends on ("{tool_input.server} is healthy") and the action it is (@ewp/claude-code README); with
"no_evidence": "ask" a call whose claim has nothing recorded yet is asked of a human, not denied, and
the reason says how to record evidence (an "observe" rule, or ewp observe). Input it cannot read (not JSON,
not UTF-8, a key given twice, more than 16 MiB), unusable arguments, a bad mapping file or a missing
ledger are answered deny with the reason. Exit: always 0.

post-tool-use and post-tool-use-failure record what Claude Code reports after a call ran (the
PostToolUse or PostToolUseFailure event, with its error) as the outcome of the call pre-tool-use
allowed and claimed, once; and, for each "observe" rule of the mapping the call matches, its
tool_response (or error) as an observation for or against that rule's claim (a failed call refutes).
They print {} when it is recorded or there is nothing to record (a tool the mapping does not gate),
and {"systemMessage":"..."} naming why when it could not be. Exit: always 0.

In .claude/settings.json:
  {"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command",
    "command":"npx -y @ewp/cli hook pre-tool-use --map .claude/ewp-tools.json --db ewp.sqlite"}]}],
   "PostToolUse":[{"matcher":"*","hooks":[{"type":"command",
    "command":"npx -y @ewp/cli hook post-tool-use --map .claude/ewp-tools.json --db ewp.sqlite"}]}],
   "PostToolUseFailure":[{"matcher":"*","hooks":[{"type":"command",
    "command":"npx -y @ewp/cli hook post-tool-use-failure --map .claude/ewp-tools.json --db ewp.sqlite"}]}]}}
`;

/** The hooks, by the name given on the command line, with the Claude Code event each reads. */
const HOOK_EVENTS = {
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  'post-tool-use-failure': 'PostToolUseFailure',
} as const;

/** Which hook the arguments name (the first that is one), for answering in its own form before they are parsed. */
function hookOf(args: readonly string[]): keyof typeof HOOK_EVENTS {
  const named = args.find((a) => Object.hasOwn(HOOK_EVENTS, a));
  return named === undefined ? 'pre-tool-use' : (named as keyof typeof HOOK_EVENTS);
}

/** The most stdin the hook reads: far more than any PreToolUse event; more is denied unread, never buffered whole. */
export const HOOK_STDIN_LIMIT_BYTES = 16 * 1024 * 1024;

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
    if (hookOf(args) !== 'pre-tool-use') {
      const note = `EWP: the hook failed (${message(error)}); the outcome of the call is not recorded`;
      io.stderr.write(`ewp hook: ${note}\n`);
      io.stdout.write(`${JSON.stringify({ systemMessage: note })}\n`);
      return EXIT_OK;
    }
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
  const { answerPreToolUse, denyAnswer, mapToolCall, parseToolMapping, recordPostToolUseEvent } = await import('@ewp/claude-code');
  const hook = hookOf(args);
  const answer = (value: object): number => {
    io.stdout.write(`${JSON.stringify(value)}\n`);
    return EXIT_OK;
  };
  // A PreToolUse hook refuses the call; after the call there is nothing to refuse, only a record that is missing.
  const refuse = (reason: string): number => {
    io.stderr.write(`ewp hook: ${reason}\n`);
    return answer(hook === 'pre-tool-use' ? denyAnswer(reason) : { systemMessage: `EWP: ${reason}; the outcome of the call is not recorded` });
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
  if (positionals.length !== 1 || !Object.hasOwn(HOOK_EVENTS, positionals[0] as string)) {
    return refuse('expected the hook name "pre-tool-use", "post-tool-use" or "post-tool-use-failure"');
  }
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
    if (hook === 'pre-tool-use') return answer(await answerPreToolUse(event, { mapping, store }));
    return answer(await recordReport(event, hook, { mapping, store }, recordPostToolUseEvent, mapToolCall, io));
  } catch (error) {
    if (hook !== 'pre-tool-use') return refuse(message(error));
    // Whatever the gate could not do is a refusal, never an exit without an answer (fail closed).
    return refuse(`the call could not be decided: ${message(error)}`);
  } finally {
    await store.close().catch(() => undefined);
  }
}

/**
 * Records one PostToolUse / PostToolUseFailure report read strictly from the hook's stdin (as the
 * PreToolUse event is); the answer is `{}`, or a `systemMessage` saying why nothing was recorded.
 * @throws whatever the ledger throws while recording (the caller says so).
 */
async function recordReport(
  input: Buffer,
  hook: 'post-tool-use' | 'post-tool-use-failure',
  options: Parameters<typeof import('@ewp/claude-code').recordPostToolUseEvent>[1],
  record: typeof import('@ewp/claude-code').recordPostToolUseEvent,
  mapToolCall: typeof import('@ewp/claude-code').mapToolCall,
  io: CliIO,
): Promise<object> {
  const unrecorded = (reason: string) => {
    io.stderr.write(`ewp hook: ${reason}\n`);
    return { systemMessage: `EWP: ${reason}; the outcome of the call is not recorded` };
  };
  let event: unknown;
  try {
    event = parseJsonStrict(input);
  } catch (error) {
    if (!EwpError.isInstance(error)) throw error;
    return unrecorded(error.code === 'JSON_SYNTAX' ? `the hook input is not JSON (${error.message})` : `the hook input is refused: ${message(error)}`);
  }
  const name = (event as { hook_event_name?: unknown } | null)?.hook_event_name;
  // Each hook is registered under its own event: another event on its stdin is a misconfiguration, said out loud.
  if (name !== HOOK_EVENTS[hook]) return unrecorded(`hook ${hook} was given a ${JSON.stringify(name ?? null)} event, not ${HOOK_EVENTS[hook]}`);
  let outcome: Awaited<ReturnType<typeof record>>;
  try {
    outcome = await record(event, options);
  } catch (error) {
    if (EwpError.isInstance(error) && error.code === 'WRONG_TYPE') return unrecorded(`the hook input is refused: ${message(error)}`);
    throw error;
  }
  for (const o of outcome.observed) {
    io.stderr.write(
      `ewp hook: ${o.stored ? 'observed' : 'already observed'}: ${o.source} ${o.polarity === 'supports' ? 'supports' : 'refutes'} ${JSON.stringify(o.claim)} (snapshot ${o.viewId})\n`,
    );
  }
  if (outcome.recorded) {
    io.stderr.write(`ewp hook: outcome recorded under decision ${outcome.decisionId}\n`);
    return {};
  }
  // A tool the mapping does not gate has no decision and nothing to record: that is no fault.
  const { tool_name: toolName, tool_input: toolInput } = event as { tool_name: string; tool_input: unknown };
  if (mapToolCall(options.mapping, toolName, toolInput).kind !== 'gated') return {};
  return unrecorded(outcome.reason);
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { ...LEDGER_OPTIONS, map: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
}
