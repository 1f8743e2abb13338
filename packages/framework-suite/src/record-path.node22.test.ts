/**
 * The record-path comparison of record-path.test.ts for the bindings that need Node 22: Mastra
 * (`gate` + `warrantToolHooks` in a Mastra agent) and AI SDK 7 (`withToolApproval` under
 * ai@7's `generateText`), each against the library's own guarded run.
 */
import { withToolApproval } from '@ewp/ai-sdk';
import { gate as mastraGate, warrantToolHooks } from '@ewp/mastra';
import { createTool } from '@mastra/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateText, scriptedModelV4, stepCountIs, tool } from '../../ai-sdk-v7-test/test/ai-v7.js';
import { opsAgent, restartModel } from '../../mastra/test/scripted-agent.js';
import { type RecordBinding, recordPathOf, REFERENCE_BINDING, SCENARIO } from './record-path.js';

const { proposition, action, now } = SCENARIO;

function restartBody(ran: string[], fail: boolean) {
  return async ({ server }: { server: string }) => {
    ran.push(server);
    if (fail) throw new Error(SCENARIO.error);
    return `restarted ${server}`;
  };
}

const BINDINGS: RecordBinding[] = [
  {
    name: 'Mastra gate + warrantToolHooks',
    run: async (store, fail) => {
      const ran: string[] = [];
      const gate = { proposition, action, store, now, name: 'restart' };
      const restart = createTool({
        id: 'restart',
        description: 'Restart a server',
        inputSchema: z.object({ server: z.string() }),
        execute: restartBody(ran, fail),
      });
      const agent = opsAgent({ restart: mastraGate(restart, gate) }, restartModel([SCENARIO.server], 'done', 'ma'), warrantToolHooks({ restart: gate }));
      const stream = await agent.stream('restart server01');
      for await (const _ of stream.fullStream) {
        // drained: the tool runs as the stream is read
      }
      return { gate: 'mastra', callId: 'ma-1', ran };
    },
  },
  {
    name: 'AI SDK 7 withToolApproval',
    run: async (store, fail) => {
      const ran: string[] = [];
      const restart = tool({ description: 'Restart a server', inputSchema: z.object({ server: z.string() }), execute: restartBody(ran, fail) });
      const { tools, toolApproval } = withToolApproval({ restart }, { restart: { proposition, action, store, now } });
      const model = scriptedModelV4([{ toolCalls: [{ id: 'v7-1', name: 'restart', input: { server: SCENARIO.server } }] }, { text: 'done' }]);
      await generateText({ model, tools, toolApproval, prompt: 'restart server01', stopWhen: stepCountIs(3) });
      return { gate: 'ai-sdk-v7', callId: 'v7-1', ran };
    },
  },
];

describe('every gate binding records one scenario as the library does (Node 22 lane)', () => {
  for (const fail of [false, true]) {
    describe(fail ? 'the tool throws' : 'the tool succeeds', () => {
      for (const binding of BINDINGS) {
        it(`${binding.name}: same records field by field, own gate and call id, one claim, the outcome as it happened`, async () => {
          const want = await recordPathOf(REFERENCE_BINDING, fail);
          const got = await recordPathOf(binding, fail);
          expect(got).toEqual(want);
        });
      }
    });
  }
});
