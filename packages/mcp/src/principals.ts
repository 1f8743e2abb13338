/**
 * Principals of an MCP server: who writes. Over HTTP a token names its principal; over stdio the
 * operator names the one principal the server runs for. The operator's observer grants say which
 * principals may write `observation` and `evidence`, and under which sub-source names; everything
 * else a principal writes is its own inference or hypothesis (`writerSource` of @ewp/tools).
 */
import { InvalidArgumentError } from '@ewp/core';
import { isSourceName, type MemoryWriter } from '@ewp/tools';

/** The principal of a stdio server unless the operator names another (`ewp serve --principal`). */
export const DEFAULT_STDIO_PRINCIPAL = 'agent';

/** The observer grant of one principal (see `MemoryWriter.observer` of @ewp/tools). */
export type ObserverGrant = NonNullable<MemoryWriter['observer']>;

/** Observer grants by principal. */
export type ObserverGrants = Readonly<Record<string, ObserverGrant>>;

/**
 * Read observer grants as `ewp serve --observer` gives them, each `PRINCIPAL` (it may write
 * observations under its own name) or `PRINCIPAL=SOURCE[,SOURCE...]` (it may name these sub-sources,
 * stored as `PRINCIPAL/SOURCE`, and write observations under them); repeated grants of one principal
 * add up.
 * @throws InvalidArgumentError naming `--observer` and the bad grant
 */
export function parseObserverGrants(specs: readonly string[]): Record<string, ObserverGrant> {
  const grants: Record<string, { self: boolean; sources: string[] }> = Object.create(null);
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const principal = (eq < 0 ? spec : spec.slice(0, eq)).trim();
    if (!isSourceName(principal)) {
      throw new InvalidArgumentError('--observer', `${JSON.stringify(spec)}: the principal must be a name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, no "/")`);
    }
    const grant = grants[principal] ?? { self: false, sources: [] };
    grants[principal] = grant;
    if (eq < 0) {
      grant.self = true;
      continue;
    }
    const sources = spec
      .slice(eq + 1)
      .split(',')
      .map((s) => s.trim());
    for (const source of sources) {
      if (!isSourceName(source)) {
        throw new InvalidArgumentError(
          '--observer',
          `${JSON.stringify(spec)}: ${JSON.stringify(source)} is not a source name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, no "/")`,
        );
      }
      if (!grant.sources.includes(source)) grant.sources.push(source);
    }
  }
  return grants;
}

/** The writer `principal` is, under the operator's `grants`. */
export function writerOf(principal: string, grants: ObserverGrants | undefined): MemoryWriter {
  const grant = grants !== undefined && Object.hasOwn(grants, principal) ? grants[principal] : undefined;
  return grant === undefined ? { principal } : { principal, observer: grant };
}
