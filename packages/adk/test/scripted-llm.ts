/**
 * A scripted ADK model of our own (no network, no key): each `generateContentAsync` call answers the
 * next scripted turn and keeps the request it was given; past the script it answers a closing text.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

export class ScriptedLlm extends BaseLlm {
  readonly requests: LlmRequest[] = [];
  readonly #turns: LlmResponse[];

  constructor(turns: readonly LlmResponse[]) {
    super({ model: 'scripted' });
    this.#turns = [...turns];
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(request);
    yield this.#turns.shift() ?? text('done');
  }

  override async connect(): Promise<BaseLlmConnection> {
    throw new Error('the scripted model has no live connection');
  }
}

/** A model turn that calls `name` with `args` under the function-call id `id`. */
export function functionCall(name: string, args: Record<string, unknown>, id: string): LlmResponse {
  return { content: { role: 'model', parts: [{ functionCall: { name, args, id } }] } };
}

/** A model turn that answers `value`. */
export function text(value: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text: value }] } };
}
