import type { RiskPolicy } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import type { z } from 'zod/v4';
import type { MemoryWriter } from './memory-tool-args.js';
import type { EwpToolName, inputs, outputs } from './schemas.js';
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
}

/** The result of a tool (its output schema's type). */
export type ToolOutput<N extends EwpToolName> = z.infer<(typeof outputs)[N]>;

/** The arguments a tool advertises (its input schema's type); the decoder accepts any JSON and refuses with codes. */
export type ToolInput<N extends EwpToolName> = z.input<(typeof inputs)[N]>;

/** One EWP tool: its description, its schemas and its implementation. */
export interface EwpTool<N extends EwpToolName = EwpToolName> {
  name: N;
  title: string;
  description: string;
  /** Writes need the ingest role, which is checked before any argument is read. */
  writes: boolean;
  /**
   * The result is a function of the arguments, the context's roles and the ledger's contents alone
   * (no clock): a binding may reuse it while the ledger's revision (`EvidenceStore.revision`) is unchanged.
   */
  deterministic?: boolean;
  /** Decode `args` (refusing with EWP codes and JSON paths) and run the tool. */
  run(args: ToolArguments, context: ToolContext): Promise<ToolOutput<N>>;
}
