/**
 * The tool-contract suite: the same calls through a binding and through the in-process toolset,
 * each on its own fresh ledger, must give the same results and the same refusal codes (transport
 * framing aside), and every refusal code must be one of {@link EWP_TOOL_CODES}. Each binding runs it
 * from one test file:
 *
 * ```ts
 * import { runToolContract } from '@ewp/tools/testing';
 * runToolContract({
 *   name: 'mcp-stdio',
 *   open: async ({ now, store }) => {
 *     // serve `store` (a fresh, empty ledger); `ingest` holds the ingest role, `reader` does not
 *     return { ingest: callerWithRole, reader: callerWithoutRole, close: async () => {} };
 *   },
 *   ownClock: true, // the binding cannot use `now` (another process): clock-derived fields are not compared
 * });
 * ```
 *
 * The ledger behind the binding is a {@link MemoryEvidenceStore} unless a {@link ContractStore} is
 * given as the second argument: the same contract then runs over any EvidenceStore.
 *
 * A caller answers `{ ok: true, value }` with the tool's structured result, or `{ ok: false, code }`
 * with the refusal code; it throws only when the binding failed (which fails the test).
 * @packageDocumentation
 */
import type { StoreConformanceOptions } from '@ewp/conformance/store-suite';
import { isWellFormed } from '@ewp/core';
import { type EvidenceStore, MemoryEvidenceStore } from '@ewp/ledger';
import { describe, expect, it } from 'vitest';
import { EWP_TOOL_CODES } from '../refusal.js';
import { runTool, toolContext } from '../toolset.js';
import { argumentCalls, type ContractCall, fixtureCalls, seedCalls } from './contract-cases.js';

export { argumentCalls, CONTRACT_BASE, CONTRACT_T, type ContractCall, contractView, fixtureCalls, MALFORMED_VALUES, seedCalls } from './contract-cases.js';

/** What one call through a binding gave. */
export type ContractOutcome = { ok: true; value: unknown } | { ok: false; code: string };

/**
 * The code a caller reports when the binding's transport refused the call's message as unreadable
 * JSON-RPC text (a JSON-RPC parse error, -32700) before any tool saw it.
 */
export const JSONRPC_PARSE_ERROR = 'JSONRPC_PARSE_ERROR';

/** Calls tools through a binding. */
export interface ToolCaller {
  call(tool: string, args: Record<string, unknown>): Promise<ContractOutcome>;
}

/** A fresh, empty ledger behind a binding, with a caller holding the ingest role and one without. */
export interface OpenedBinding {
  ingest: ToolCaller;
  reader: ToolCaller;
  close(): Promise<void>;
}

/** A binding under test. */
export interface ToolBinding {
  name: string;
  /**
   * Serve `store`, a fresh and empty ledger the suite closes afterwards. A binding that runs the
   * ledger in another process (stdio) opens its own there and leaves `store` unused.
   */
  open(options: { now: () => Date; store: EvidenceStore }): Promise<OpenedBinding>;
  /** The binding keeps its own clock: results at the clock are compared without their time. */
  ownClock?: boolean;
  /**
   * The binding's transport reads JSON text strictly: a string holding a lone surrogate is no
   * Unicode text, so a call carrying one is refused as a JSON-RPC parse error (the caller answers
   * {@link JSONRPC_PARSE_ERROR}) where the in-process tools refuse it with their own code.
   */
  strictJsonText?: boolean;
}

/** Whether any string of `value` (keys included) holds a lone surrogate. */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return !isWellFormed(value);
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([k, v]) => !isWellFormed(k) || holdsLoneSurrogate(v));
}

/**
 * Where the ledger behind a binding comes from: the same store factory (name, `create`, capability
 * flags, `destroy`) that `runStoreConformance` of `@ewp/conformance/store-suite` takes.
 */
export type ContractStore = Pick<StoreConformanceOptions<EvidenceStore>, 'name' | 'create' | 'capabilities' | 'destroy'>;

/** The default ledger of the suite. */
export const MEMORY_CONTRACT_STORE: ContractStore = {
  name: 'memory',
  capabilities: MemoryEvidenceStore.CAPABILITIES,
  create: () => new MemoryEvidenceStore(),
};

/** The clock of the suite (bindings that can take a clock use it). */
export const CONTRACT_NOW = new Date('2026-09-21T19:31:00Z');

/** The in-process toolset as a binding: the reference every other binding is compared with. */
export function inProcessBinding(now?: () => Date): ToolBinding {
  return {
    name: 'in-process',
    open: async (options) => {
      const store = options.store;
      const caller = (ingest: boolean): ToolCaller => {
        const context = toolContext({ store, ingest, now: now ?? options.now });
        return {
          call: async (tool, args) => {
            const outcome = await runTool(tool, args, context);
            return outcome.ok ? { ok: true, value: JSON.parse(JSON.stringify(outcome.value)) } : { ok: false, code: outcome.refusal.code };
          },
        };
      };
      return { ingest: caller(true), reader: caller(false), close: async () => undefined };
    },
  };
}

/** A store that drops `adapter_meta` gives it back empty: compare without it. */
function withoutAdapterMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAdapterMeta);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'adapter_meta')
      .map(([k, v]) => [k, withoutAdapterMeta(v)]),
  );
}

/** Tools whose result carries the clock's time when the call gives none. */
function withoutClock(call: ContractCall, outcome: ContractOutcome): ContractOutcome {
  if (!outcome.ok || typeof outcome.value !== 'object' || outcome.value === null) return outcome;
  const value = { ...(outcome.value as Record<string, unknown>) };
  const given = call.args.evaluated_at;
  if (call.tool === 'ewp_may_act' || (call.tool === 'ewp_memory_context' && (typeof given !== 'string' || given === ''))) delete value.evaluated_at;
  return { ok: true, value };
}

/**
 * Each `ewp_may_act` call records its own decision: the id names that call's record, never equal across
 * calls. The call it names (and claims) is the binding's own (an MCP request's id), not the toolset's.
 */
function withoutDecisionId(call: ContractCall, outcome: ContractOutcome): ContractOutcome {
  if (!outcome.ok || call.tool !== 'ewp_may_act' || typeof outcome.value !== 'object' || outcome.value === null) return outcome;
  const { decision_id: _id, call_id: _call, claimed: _claimed, ...value } = outcome.value as Record<string, unknown>;
  return { ok: true, value };
}

async function compare(
  subject: OpenedBinding,
  reference: OpenedBinding,
  calls: ContractCall[],
  ownClock: boolean,
  keepsAdapterMeta: boolean,
  strictJsonText: boolean,
): Promise<number> {
  const comparable = (call: ContractCall, outcome: ContractOutcome): ContractOutcome => {
    const timed = withoutDecisionId(call, ownClock ? withoutClock(call, outcome) : outcome);
    return keepsAdapterMeta || !timed.ok ? timed : { ok: true, value: withoutAdapterMeta(timed.value) };
  };
  for (const call of calls) {
    const expected = await (call.reader ? reference.reader : reference.ingest).call(call.tool, call.args);
    let got: ContractOutcome;
    try {
      got = await (call.reader ? subject.reader : subject.ingest).call(call.tool, call.args);
    } catch (error) {
      throw new Error(`${call.label}: the binding failed instead of answering: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (strictJsonText && holdsLoneSurrogate(call.args)) {
      // The wire's JSON reader refuses the text before any tool, whatever the tool would answer in process.
      expect(got, call.label).toEqual({ ok: false, code: JSONRPC_PARSE_ERROR });
      continue;
    }
    if (!got.ok) expect(EWP_TOOL_CODES as readonly string[], `${call.label}: ${got.code}`).toContain(got.code);
    expect(comparable(call, got), call.label).toEqual(comparable(call, expected));
  }
  return calls.length;
}

/** Register the suite with vitest for `binding`, over ledgers from `store` (default: in memory). */
export function runToolContract(binding: ToolBinding, store: ContractStore = MEMORY_CONTRACT_STORE): void {
  const ownClock = binding.ownClock === true;
  const strictJsonText = binding.strictJsonText === true;
  // A binding with its own clock is compared with a reference on the system clock.
  const now = ownClock ? () => new Date() : () => CONTRACT_NOW;
  const reference = inProcessBinding(now);

  async function both<T>(work: (subject: OpenedBinding, ref: OpenedBinding, keepsAdapterMeta: boolean) => Promise<T>): Promise<T> {
    const ledger = await store.create();
    const subject = await binding.open({ now, store: ledger });
    const refStore = new MemoryEvidenceStore();
    const ref = await reference.open({ now, store: refStore });
    try {
      // The opened store's own flags decide (a factory declares them before any store exists).
      return await work(subject, ref, ledger.capabilities.keepsAdapterMeta);
    } finally {
      await subject.close();
      await ref.close();
      await refStore.close();
      await ledger.close();
      await store.destroy?.(ledger);
    }
  }

  describe(`tool contract: ${binding.name}${store === MEMORY_CONTRACT_STORE ? '' : ` over ${store.name}`}`, () => {
    it('every tool × every argument × every malformed value: the same result or refusal code as in process', async () => {
      const calls = argumentCalls();
      const count = await both(async (subject, ref, keepsAdapterMeta) =>
        compare(subject, ref, [...seedCalls(), ...calls], ownClock, keepsAdapterMeta, strictJsonText),
      );
      expect(count).toBe(calls.length + seedCalls().length);
    });

    it('the 52 pack fixtures, stored and evaluated: the same results as in process', async () => {
      const calls = fixtureCalls();
      expect(calls.length).toBe(52 * 3);
      await both(async (subject, ref, keepsAdapterMeta) => compare(subject, ref, calls, ownClock, keepsAdapterMeta, strictJsonText));
    });
  });
}

/** How many calls the suite makes per binding (for reports). */
export function contractCallCount(): { arguments: number; fixtures: number } {
  return { arguments: argumentCalls().length + seedCalls().length, fixtures: fixtureCalls().length };
}
export { appendDecisions, type DecisionFill } from './decision-ledger.js';
