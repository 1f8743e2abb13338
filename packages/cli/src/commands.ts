import type { Command } from './cli-io.js';

/**
 * Verb → lazily loaded implementation, so `ewp eval` never loads SQLite or the MCP SDK.
 * `streams(args)`: the run handles many small items one after another (a server's requests, a batch's
 * lines or views), so the bin caps V8's young generation for a smaller footprint (see `bin.ts`); not for
 * one large document, whose objects the cap would promote early.
 */
export const COMMANDS: Record<
  string,
  {
    summary: string;
    load: () => Promise<Command>;
    streams?: (args: readonly string[]) => boolean;
    /**
     * The verb's stdout is a report, not its job: when the reader goes away the verb finishes and
     * says so on stderr (its own `OutputSink`), instead of ending there as a reader's `head` ends `eval --jsonl`.
     */
    finishesWhenOutputCloses?: true;
    /**
     * The verb answers arguments that are not UTF-8 itself (the hook must print a decision: it denies,
     * exit 0) instead of the bin refusing them (exit 2).
     */
    answersUndecodableArguments?: true;
  }
> = {
  eval: {
    summary: 'evaluate views: a table, or --jsonl batch from stdin',
    load: async () => (await import('./commands/eval.js')).evalCommand,
    streams: (args) => args.includes('--jsonl'),
  },
  ingest: {
    summary: 'store views in a ledger (--db, --pg, --json-dir) and print their warrant',
    load: async () => (await import('./commands/ingest.js')).ingestCommand,
    streams: () => true,
    finishesWhenOutputCloses: true,
  },
  audit: { summary: "verify a ledger's hash-chained event log", load: async () => (await import('./commands/audit.js')).auditCommand },
  serve: {
    summary: 'run the MCP server over a ledger (stdio or Streamable HTTP)',
    load: async () => (await import('./commands/serve.js')).serveCommand,
    streams: () => true,
  },
  inspect: {
    summary: 'a read-only web page: why the evidence warrants what it does',
    load: async () => (await import('./commands/inspect.js')).inspectCommand,
  },
  conformance: {
    summary: 'run the adapter conformance suite and write loss reports',
    load: async () => (await import('./commands/conformance.js')).conformanceCommand,
  },
  canonical: {
    summary: 'canonical bytes (EBCJ-1 or JCS) or a domain digest of JSON on stdin',
    load: async () => (await import('./commands/canonical.js')).canonicalCommand,
  },
  receipt: { summary: 'issue or verify a warrant receipt', load: async () => (await import('./commands/receipt.js')).receiptCommand },
  decisions: {
    summary: 'recorded gate decisions: list, show, verify (offline, from the ledger alone), run one under the replay guard',
    load: async () => (await import('./commands/decisions.js')).decisionsCommand,
  },
  keys: {
    summary: 'signing keys of decision records on the ledger: add, rotate, retire, revoke, list',
    load: async () => (await import('./commands/keys.js')).keysCommand,
  },
  checkpoint: {
    summary: 'EvidenceBound checkpoints in a SQLite receipt store: create, verify, invalidate',
    load: async () => (await import('./commands/checkpoint.js')).checkpointCommand,
  },
  recover: {
    summary: 'after evidence changed: plan recovery, re-evaluate, record a retraction',
    load: async () => (await import('./commands/recover.js')).recoverCommand,
  },
  hook: {
    summary: 'a Claude Code hook: pre-tool-use answers allow / ask / deny from the warrant gate; post-tool-use(-failure) records the outcome',
    load: async () => (await import('./commands/hook.js')).hookCommand,
    answersUndecodableArguments: true,
  },
  observe: {
    summary: 'record a tool result as evidence for or against a claim (--claim, --tool, --supports | --refutes)',
    load: async () => (await import('./commands/observe.js')).observeCommand,
  },
  store: {
    summary: 'store a memory with its epistemic class (--class, --supports)',
    load: async () => (await import('./commands/memory-store.js')).memoryStoreCommand,
  },
  recall: {
    summary: 'recall memories with class and confidence (--class, --confidence-min)',
    load: async () => (await import('./commands/memory-recall.js')).memoryRecallCommand,
  },
  evidence: {
    summary: "a memory's evidence: show, link, refute, reclass, audit, gate-stats",
    load: async () => (await import('./commands/memory-evidence.js')).memoryEvidenceCommand,
  },
  memory: {
    summary: 'the persona file: checkout MEMORY.md, read an edited one back',
    load: async () => (await import('./commands/memory-checkout.js')).memoryCommand,
  },
  bench: { summary: 'ewp bench harm: wrong actions on drifting memory, per arm', load: async () => (await import('./commands/bench-harm.js')).benchCommand },
};
