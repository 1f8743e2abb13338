/**
 * A MockLanguageModelV4 (ai@7's `ai/test`) scripted turn by turn: each turn is a list of tool calls
 * or a text. Works for generateText (doGenerate) and streamText (doStream).
 */
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';

export type Turn = { text: string } | { toolCalls: Array<{ id: string; name: string; input: unknown }> };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function content(turn: Turn): LanguageModelV4Content[] {
  if ('text' in turn) return [{ type: 'text', text: turn.text }];
  return turn.toolCalls.map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) }));
}

export function scriptedModelV4(turns: Turn[]): MockLanguageModelV4 & { prompts: LanguageModelV4CallOptions['prompt'][] } {
  let at = 0;
  const prompts: LanguageModelV4CallOptions['prompt'][] = [];
  const next = (options: LanguageModelV4CallOptions): Turn => {
    prompts.push(options.prompt);
    const turn = turns[at++];
    if (turn === undefined) throw new Error(`scripted model: no turn ${at} left`);
    return turn;
  };
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const turn = next(options);
      return {
        content: content(turn),
        finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      const turn = next(options);
      const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if ('text' in turn) {
        parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: turn.text }, { type: 'text-end', id: 't' });
      } else {
        for (const c of turn.toolCalls) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) });
      }
      parts.push({ type: 'finish', finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined }, usage });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return Object.assign(model, { prompts });
}
