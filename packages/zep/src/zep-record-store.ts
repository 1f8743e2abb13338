import { type CommitRecord, type CommitRecordHit, type CommitRecordQuery, type CommitRecordStore, commitQueryMetadata } from '@ewp/ledger';
import type { ZepClient } from '@getzep/zep-cloud';
import { type EpisodeDraft, META, recordEpisodes, recordsFromEpisodes, type ZepEpisode } from './episode-codec.js';

/** Zep's search limit. */
export const MAX_SEARCH_LIMIT = 50;
/** Zep clamps an explicit list limit to 50. */
const PAGE_LIMIT = 50;

type MetadataFilter = { comparisonOperator: '='; propertyName: string; propertyValue: string | number };

/**
 * Ledger records as episodes of one Zep graph (see {@link recordEpisodes}): a claim's record has the
 * claim as a `text` episode, so Zep's search and fact extraction see it; the record itself travels in
 * JSON episodes. A record is listed once all its episodes are processed.
 */
export class ZepRecordStore implements CommitRecordStore {
  constructor(
    readonly client: ZepClient,
    readonly graphId: string,
    private readonly maxEpisodeChars = 10_000,
  ) {}

  async put(record: CommitRecord): Promise<void> {
    // One add per episode, never retried: a retry could store an episode twice.
    for (const draft of recordEpisodes(record, this.maxEpisodeChars)) await this.add(draft);
  }

  async list(query: CommitRecordQuery): Promise<CommitRecord[]> {
    const filters = Object.entries(commitQueryMetadata(query)).map(
      ([propertyName, propertyValue]): MetadataFilter => ({ comparisonOperator: '=', propertyName, propertyValue }),
    );
    return recordsFromEpisodes(await this.episodes(filters));
  }

  async search(query: string, scope: { proposition: string; limit: number }): Promise<CommitRecordHit[]> {
    const result = await this.client.graph.search({
      graphId: this.graphId,
      query,
      scope: 'episodes',
      limit: Math.min(scope.limit, MAX_SEARCH_LIMIT),
      searchFilters: {
        episodeMetadataFilters: {
          type: 'and',
          filters: [
            { comparisonOperator: '=', propertyName: META.proposition, propertyValue: scope.proposition },
            { comparisonOperator: '=', propertyName: META.part, propertyValue: 0 },
          ],
        },
      },
    });
    const out: CommitRecordHit[] = [];
    for (const e of (result.episodes ?? []) as ZepEpisode[]) {
      const key = e.metadata?.[META.key];
      if (typeof key !== 'string') continue;
      // A hit is the claim's text episode; the record is read whole from its episodes.
      const [record] = recordsFromEpisodes(await this.episodes([{ comparisonOperator: '=', propertyName: META.key, propertyValue: key }]));
      if (record !== undefined) out.push(e.score === undefined ? { record } : { record, score: e.score });
    }
    return out;
  }

  /** Every episode of the graph matching `filters` (all pages; `[]`: every episode). */
  async episodes(filters: MetadataFilter[]): Promise<ZepEpisode[]> {
    const out: ZepEpisode[] = [];
    let cursor: string | undefined;
    for (;;) {
      const { data, rawResponse } = await this.client.graph.episode
        .listByGraphId(this.graphId, {
          limit: PAGE_LIMIT,
          orderBy: 'uuid',
          direction: 'asc',
          ...(cursor ? { cursor } : {}),
          ...(filters.length > 0 ? { episodeMetadataFilters: { type: 'and', filters } } : {}),
        })
        .withRawResponse();
      out.push(...(data as ZepEpisode[]));
      const next = rawResponse.headers.get('Zep-Next-Cursor');
      if (!next || data.length === 0) return out;
      cursor = next;
    }
  }

  private async add(draft: EpisodeDraft): Promise<void> {
    await this.client.graph.add({ graphId: this.graphId, type: draft.type, data: draft.data, sourceDescription: 'ewp', metadata: draft.metadata });
  }
}
