import type { RiskPolicy } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { ToolName, ToolOutput } from '@ewp/spec/tools';
import type { MemoryWriter } from './memory-tool-args.js';
import type { ToolArguments } from './tool-arguments.js';

/** What a tool call runs against: the ledger, the caller's role, the operator's policy and the clock. */
export interface ToolContext {
  store: EvidenceStore;
  /** The caller holds the ingest role (writes, attested inline views, `risk_policy`). */
  ingest: boolean;
  /** Whether attested writes may carry trusted origins at all (the operator's ingest capability). */
  trustedOrigins: boolean;
  /** The operator's action policy for `ewp_may_act`; a caller's `risk_policy` (ingest role only) overrides its flags. */
  riskPolicy: RiskPolicy | undefined;
  /** The clock: decision time of `ewp_may_act`, default T of `ewp_memory_context`. */
  now: () => Date;
  /**
   * Who writes, for a caller with the ingest role: the source of every memory it stores and its
   * observer grant (see {@link MemoryWriter}). Absent: the principal `agent`, no observer grant.
   */
  writer?: MemoryWriter | undefined;
  /**
   * The binding's own name for this call and its id (an MCP server: gate `mcp` and the request's id,
   * scoped to its connection): `ewp_may_act` records its decision under them and claims the call once.
   * A caller's `call_id` argument replaces the id. Absent: gate `ewp_may_act`, a random id, no claim.
   * The other bindings name each call through `runTool`'s `call` argument (their gate name, the framework's call id).
   */
  call?: { gate: string; callId: string } | undefined;
  /**
   * The binding's gate name when the call itself is unnamed (`runTool`'s `call` without an id; an MCP
   * server's `mcp`): `ewp_decision_outcome` reports on the decisions recorded under the gate of
   * {@link call}, else this one, else `ewp_may_act`'s own (see `callGate`).
   */
  gate?: string | undefined;
}

/** How one tool runs (its name, description, schemas and role are the registry's: `TOOL_SPECS` of `@ewp/spec/tools`). */
export interface ToolImplementation<N extends ToolName = ToolName> {
  /** Decode `args` (refusing with EWP codes and JSON paths) and run the tool; the role and the argument bounds were checked by `runTool`. */
  run(args: ToolArguments, context: ToolContext): Promise<ToolOutput<N>>;
}
