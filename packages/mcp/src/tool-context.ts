import type { EvidenceStore } from '@ewp/ledger';
import type { z } from 'zod';
import type { EwpToolName, outputs } from './schemas.js';
import type { ToolArguments } from './tool-arguments.js';

/** What a tool call runs against: the ledger, the caller's role and the server clock. */
export interface ToolContext {
  store: EvidenceStore;
  /** The caller holds the server-side ingest role. */
  ingest: boolean;
  /** The server clock (decision time of `ewp_may_act`). */
  now: () => Date;
}

/** One MCP tool: its description and its implementation. */
export interface EwpTool<N extends EwpToolName = EwpToolName> {
  name: N;
  title: string;
  description: string;
  /** Writes need the ingest role, which is checked before any argument is read. */
  writes: boolean;
  run(args: ToolArguments, context: ToolContext): Promise<z.infer<(typeof outputs)[N]>>;
}
