/**
 * The live store `ewp conformance` runs the pack against, for the loss report of the user's own
 * deployment: a PostgreSQL URL (`--pg`), a Mem0 platform or self-hosted Mem0 server (`--mem0`), Zep
 * cloud or a Zep-compatible Graphiti gateway (`--zep`). Secrets come from `--secret-file` or the
 * environment, never from the command line: a URL holding a password is refused. The run works in a
 * namespace of its own (schemas, users or graphs named `ewp-conformance-<random>…`) and removes it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AdapterSubject } from '@ewp/conformance/adapter-suite';
import { EwpError } from '@ewp/core';
import { splitPgUrl } from '../open-store.js';

/** The target options as parsed from the command line. */
export interface TargetOptions {
  pg?: string;
  mem0?: string;
  zep?: string;
  'secret-file'?: string;
}

/** A target the command line names wrongly; maps to exit code 2. */
export class TargetError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.ConformanceTargetError');
  constructor(path: string, message: string) {
    super('EWP_REFUSE_INVALID_ARGUMENTS', message, { path });
    this.name = 'TargetError';
  }
}

/** Where each kind of target takes its secret from when no `--secret-file` is given. */
const SECRET_ENV = { mem0: 'MEM0_API_KEY', zep: 'ZEP_API_KEY', pg: 'PGPASSWORD' } as const;

/** Whether the options name a live target at all. */
export function namesTarget(values: TargetOptions): boolean {
  return values.pg !== undefined || values.mem0 !== undefined || values.zep !== undefined;
}

function parseUrl(option: 'pg' | 'mem0' | 'zep', text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetError(option, `--${option}: not a URL: ${JSON.stringify(text)}`);
  }
  if (url.password !== '') {
    throw new TargetError(
      option,
      `--${option}: the URL holds a password; put it in a file (--secret-file) or ${SECRET_ENV[option]}, never on the command line`,
    );
  }
  if (option !== 'pg' && url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TargetError(option, `--${option}: expected an http(s):// URL, got ${JSON.stringify(url.protocol)}`);
  }
  return url;
}

function readSecret(option: 'pg' | 'mem0' | 'zep', file: string | undefined, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if (file === undefined) return env[SECRET_ENV[option]] || undefined;
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8').trim();
  } catch (error) {
    throw new TargetError('secret-file', `--secret-file: cannot read ${file}: ${(error as Error).message}`);
  }
  if (text === '') throw new TargetError('secret-file', `--secret-file: ${file} is empty`);
  return text;
}

/** Imports a module by specifier (the command's loader, so tests and uninstalled adapters behave alike). */
type Load = (specifier: string) => Promise<unknown>;

/** The PostgreSQL store as a subject: one fresh schema per fixture, every one dropped by `dispose()`. */
async function postgresSubject(url: string, password: string | undefined, namespace: string): Promise<AdapterSubject> {
  const split = splitPgUrl(url);
  if (split.schema !== undefined) throw new TargetError('pg', '--pg: no ?schema= here: the run creates schemas of its own and drops them afterwards');
  const where = new URL(split.connectionString);
  const name = `postgres@${where.host}${where.pathname}`;
  // The secret joins the connection string here, in memory only.
  if (password !== undefined) where.password = encodeURIComponent(password);
  const connectionString = where.toString();
  const { openPostgresStore, dropPostgresLedger } = await import('@ewp/postgres');
  const schemas: string[] = [];
  return {
    name,
    capabilities: { search: false, nativeRecords: false, snapshots: true },
    // The store keeps every field: nothing is expected to be lost.
    expectedLoss: { adapter: 'postgres', losses: [] },
    async create() {
      const schema = `${namespace.replaceAll('-', '_')}_${schemas.length + 1}`;
      schemas.push(schema);
      return openPostgresStore({ connectionString, schema, maxConnections: 1 });
    },
    async dispose() {
      for (const schema of schemas) await dropPostgresLedger(schema, { connectionString });
    },
  };
}

/**
 * The subject for the target the options name (exactly one), with its secret.
 * @throws {TargetError} for several targets, a bad URL, a password in a URL, an unreadable secret file,
 *   or a Mem0/Zep target without an API key.
 */
export async function targetSubject(values: TargetOptions, cwd: string, env: NodeJS.ProcessEnv, load: Load): Promise<AdapterSubject> {
  const named = (['pg', 'mem0', 'zep'] as const).filter((k) => values[k] !== undefined);
  if (named.length !== 1) throw new TargetError(named[1] ?? 'pg', `name one live store at a time: --${named.join(', --')}`);
  const option = named[0] as 'pg' | 'mem0' | 'zep';
  const url = parseUrl(option, values[option] as string);
  const secret = readSecret(option, values['secret-file'], cwd, env);
  const namespace = `ewp-conformance-${randomBytes(4).toString('hex')}`;
  if (option === 'pg') return postgresSubject(url.toString(), secret, namespace);
  if (secret === undefined) throw new TargetError(option, `--${option}: no API key: give --secret-file FILE or set ${SECRET_ENV[option]}`);
  if (option === 'mem0') {
    const { mem0HostedSubject } = (await load('@ewp/mem0/conformance')) as typeof import('@ewp/mem0/conformance');
    return mem0HostedSubject({ apiKey: secret, host: url.toString().replace(/\/$/, ''), namespace });
  }
  const { zepSubject } = (await load('@ewp/zep/conformance')) as typeof import('@ewp/zep/conformance');
  return zepSubject({ apiKey: secret, baseUrl: url.toString().replace(/\/$/, ''), namespace });
}
