/**
 * Test and example helpers: a local server speaking Zep's v2 graph API, for the real `ZepClient`.
 * @packageDocumentation
 */
export {
  type FactExtractor,
  startZepGraphServer,
  ZEP_LIMITS,
  type ZepEdgeRecord,
  type ZepEpisodeRecord,
  type ZepGraphServer,
  type ZepLimits,
} from './zep-graph-server.js';
