/**
 * The Zep subject of the shared loss-report suite run offline: the official `ZepClient` against this
 * package's local graph server. Used by the tests here and by `ewp conformance` in a checkout of the
 * repository (elsewhere it needs a deployment: `ewp conformance --zep URL`).
 * @packageDocumentation
 */
import type { AdapterSubject } from '@ewp/core';
import { zepSubject } from '@ewp/zep/conformance';
import { startZepGraphServer, type ZepEpisodeRecord } from './zep-graph-server.js';

/** Zep's extraction, standing in for Graphiti's LLM: a fact from each claim's text episode. */
function extractAssertionFacts(episode: ZepEpisodeRecord): { fact: string; name: string }[] {
  return episode.metadata.ewp_part === 0 ? [{ fact: episode.content, name: 'ASSERTS' }] : [];
}

/** `zep`: the official client against a local graph server started for the run, stopped after it. */
export function localZepSubject(): AdapterSubject {
  return zepSubject(async () => {
    // Zep extracts a fact from each assertion episode (identical facts merge, as in Graphiti).
    const server = await startZepGraphServer({ processingDelayMs: 0, extractor: extractAssertionFacts });
    return { apiKey: server.apiKey, baseUrl: server.baseUrl, namespace: 'conformance', close: () => server.close() };
  });
}

/** Every offline Zep subject, for `ewp conformance`. */
export function conformanceSubjects(): AdapterSubject[] {
  return [localZepSubject()];
}
