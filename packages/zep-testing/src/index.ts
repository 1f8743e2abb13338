/**
 * @ewp/zep-testing — test doubles of Zep, private to the repository (never published): a local
 * server speaking Zep's v2 graph API, for the real `ZepClient`. The offline conformance subject is
 * in `@ewp/zep-testing/conformance`.
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
