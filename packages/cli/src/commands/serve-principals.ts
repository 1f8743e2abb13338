/**
 * `ewp serve`'s principals: who writes through the server. Over HTTP every token file names the
 * principal its token authenticates (`--token-file NAME=PATH`, repeatable; `--ingest-token-file` is
 * the principal `operator`'s); over stdio the operator names the one principal the server runs for
 * (`--principal NAME`, default `agent`). `--observer PRINCIPAL[=SOURCE,...]` grants a principal
 * observations (under its own name, or under the named sub-sources `PRINCIPAL/SOURCE`).
 */
import { assertPrincipalTokens, type ObserverGrants, parseObserverGrants, type PrincipalToken, readIngestTokenFile } from '@ewp/mcp';
import { isSourceName } from '@ewp/tools';
import type { CliIO } from '../cli-io.js';
import { UsageError } from '../errors.js';

/** The parseArgs options of the principal flags. */
export const PRINCIPAL_OPTIONS = {
  principal: { type: 'string' },
  'token-file': { type: 'string', multiple: true },
  observer: { type: 'string', multiple: true },
} as const;

/** The help lines of the principal flags. */
export const PRINCIPAL_HELP = `  --principal NAME        stdio only: the principal this client writes as (default agent): the
                          source of every memory it stores
  --token-file NAME=F     HTTP only, repeatable: requests bearing the token in file F (trimmed) write
                          as principal NAME (--ingest-token-file F is the principal operator's)
  --observer P[=S,...]    repeatable: principal P may store observation and evidence, under its own
                          name (P) or under the sub-sources S given (stored as P/S); without it, what a
                          principal stores is its own inference or hypothesis (an observation is refused)
`;

/** What the principal flags give. */
export interface PrincipalOptions {
  /** stdio's principal, when given. */
  principal?: string;
  /** HTTP tokens bound to principals (besides the operator's `--ingest-token-file`). */
  tokens: PrincipalToken[];
  observers: ObserverGrants;
}

/**
 * Read the principal flags.
 * @throws UsageError naming the flag
 */
export async function readPrincipalOptions(
  values: { principal?: string | undefined; 'token-file'?: string[] | undefined; observer?: string[] | undefined },
  http: boolean,
  io: CliIO,
  path: (p: string) => string,
): Promise<PrincipalOptions> {
  const options: PrincipalOptions = { tokens: [], observers: {} };
  if (values.principal !== undefined) {
    if (http) throw new UsageError('--principal is stdio only; over HTTP each token names its principal (--token-file NAME=FILE)');
    if (!isSourceName(values.principal))
      throw new UsageError(`--principal: ${JSON.stringify(values.principal)} is not a name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, no "/")`);
    options.principal = values.principal;
  }
  const files = values['token-file'] ?? [];
  if (files.length > 0 && !http) throw new UsageError('--token-file is for --http; on stdio the operator names the principal with --principal');
  for (const spec of files) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new UsageError(`--token-file: expected NAME=FILE, got ${JSON.stringify(spec)}`);
    const [name, file] = [spec.slice(0, eq), spec.slice(eq + 1)];
    let read: { token: string; warning?: string };
    try {
      read = await readIngestTokenFile(path(file));
    } catch (error) {
      throw new UsageError(`--token-file: cannot read ${file}: ${(error as Error).message}`);
    }
    if (read.token === '') throw new UsageError(`--token-file: ${file} is empty`);
    if (read.warning !== undefined) io.stderr.write(`ewp serve: warning: ${read.warning}\n`);
    options.tokens.push({ principal: name, token: read.token });
  }
  try {
    assertPrincipalTokens(options.tokens);
    options.observers = parseObserverGrants(values.observer ?? []);
  } catch (error) {
    throw new UsageError(`${(error as { path?: string }).path === '--observer' ? '' : '--token-file: '}${(error as Error).message}`);
  }
  return options;
}
