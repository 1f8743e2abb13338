/**
 * One gated call in a LangGraph graph, shared by `gate()` and `warrantMiddleware()`: decide on the
 * latest stored evidence; MAY_ACT runs the call; REQUIRE_CONFIRMATION pauses the graph with `interrupt`
 * for a human and runs it only on an approval; DENY (or no approval) returns the typed refusal instead.
 * On resume LangGraph runs the node again from the start, so the decision is made again on the evidence
 * of that moment. Decisions, the approval and the outcome are recorded in the ledger by `runGuarded`,
 * under the gate `langchain` and the tool call id: a call runs once, so a resume replayed (the same
 * checkpoint resumed twice) decides again and is refused.
 */
import type { GateName } from '@ewp/core';
import { type GateOptions, type GateRefusal, gateRefusal, runGuarded } from '@ewp/tools';
import { interrupt } from '@langchain/langgraph';

/** The gate name on the decision records this binding writes (its gate and its `ewp_may_act` tool). */
export const LANGCHAIN_GATE: GateName = 'langchain';

/** What the graph pauses with: the pending decision and the call a human is asked to confirm. */
export interface GateInterrupt extends GateRefusal {
  ewpGate: 'REQUIRE_CONFIRMATION';
  /** The gated tool's name. */
  tool: string;
  /** The call's arguments. */
  args: unknown;
}

/** What a human resumes with (`new Command({ resume })`): `true`/`false` or `{ approved }`. */
export type GateResume = boolean | { approved: boolean };

function approved(answer: unknown): boolean {
  if (answer === true) return true;
  return typeof answer === 'object' && answer !== null && (answer as { approved?: unknown }).approved === true;
}

/**
 * Run `run` if the gate lets the call of `tool` with `input` through; else return `refuse(refusal)`.
 * `options` were checked (`checkGateOptions`) when the tool or the middleware was made. Its records
 * name the gate `langchain` and `callId` (the tool call's id), unless `options` name their own.
 * @throws {DecisionError} when the ledger cannot record (`EWP_REFUSE_DECISION_NOT_RECORDED`), or when
 * the call was already executed (`EWP_REFUSE_DECISION_NOT_EXECUTABLE`): `run` is not called.
 */
export async function gatedCall<INPUT, RESULT>(
  options: GateOptions<INPUT>,
  call: { tool: string; callId: string | undefined },
  input: INPUT,
  run: () => Promise<RESULT>,
  refuse: (refusal: GateRefusal) => RESULT,
): Promise<RESULT> {
  const guarded = await runGuarded(
    {
      ...options,
      confirm: (d) => {
        const pending: GateInterrupt = {
          ...gateRefusal(d, 'REQUIRE_CONFIRMATION', `${d.propositionId} needs a human confirmation before this action`),
          ewpGate: 'REQUIRE_CONFIRMATION',
          tool: call.tool,
          args: input,
        };
        return approved(interrupt(pending)) ? { confirmedBy: `langgraph resume of ${call.tool}` } : false;
      },
    },
    input,
    { gate: LANGCHAIN_GATE, tool: call.tool, callId: call.callId },
    () => run(),
  );
  return guarded.status === 'executed' ? guarded.result : refuse(guarded.refusal as GateRefusal);
}
