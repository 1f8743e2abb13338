/** The HTTP ingest role: a bearer token, long enough to resist guessing, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { EwpError, InvalidArgumentError } from '@ewp/core';
import { isSourceName } from '@ewp/tools';

/** Shortest ingest token accepted (UTF-8 bytes): 32 random bytes is what `openssl rand -hex 32` gives twice over. */
export const MIN_INGEST_TOKEN_BYTES = 32;

/** An ingest token too short to resist guessing. */
export class WeakIngestTokenError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.WeakIngestTokenError');
  constructor(bytes: number) {
    super('UNSAFE_BIND', `the ingest token is ${bytes} bytes; it must be at least ${MIN_INGEST_TOKEN_BYTES} (make one with: openssl rand -hex 32)`);
    this.name = 'WeakIngestTokenError';
  }
}

/**
 * Refuse a token shorter than {@link MIN_INGEST_TOKEN_BYTES} UTF-8 bytes, on loopback too: any local
 * process (or a page that reaches the port) could guess a short one.
 * @throws WeakIngestTokenError
 */
export function assertIngestToken(token: string): void {
  const bytes = Buffer.byteLength(token, 'utf8');
  if (bytes < MIN_INGEST_TOKEN_BYTES) throw new WeakIngestTokenError(bytes);
}

/**
 * Read an ingest token file: its content, trimmed, and a one-line warning when the file is readable
 * by its group or by others (the token then grants the ingest role to every account that can read it).
 * The token's length is checked by {@link assertIngestToken}, not here.
 */
export async function readIngestTokenFile(path: string): Promise<{ token: string; warning?: string }> {
  const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
  const token = text.trim();
  if ((info.mode & 0o044) === 0) return { token };
  const mode = (info.mode & 0o777).toString(8).padStart(3, '0');
  return { token, warning: `the token file ${path} is readable by ${info.mode & 0o004 ? 'others' : 'its group'} (mode ${mode}): chmod 600 it` };
}

function digest(bytes: Buffer): Buffer {
  return createHash('sha256').update(bytes).digest();
}

/**
 * The token a request presents: `Authorization: Bearer <token>` (prefix case-insensitive; without
 * it the whole value is the token), or `X-EWP-Ingest-Token` when Authorization is absent or empty.
 */
export function presentedToken(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization?.trim();
  if (authorization) {
    const match = /^bearer\s+(.*)$/is.exec(authorization);
    return match ? (match[1] as string).trim() : authorization;
  }
  const header = headers['x-ewp-ingest-token'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() || undefined;
}

/**
 * Whether the request holds the ingest role. `headers` are as `node:http` parsed them: one
 * character per byte received, so the presented token's bytes are compared with the UTF-8 bytes
 * of the configured one (a non-ASCII token sent as UTF-8 matches). Both sides are hashed first so
 * the comparison takes the same time whatever the lengths and contents.
 */
export function holdsIngestRole(headers: IncomingHttpHeaders, expectedToken: string | undefined): boolean {
  if (!expectedToken) return false;
  const presented = presentedToken(headers);
  if (presented === undefined) return false;
  return timingSafeEqual(digest(Buffer.from(presented, 'latin1')), digest(Buffer.from(expectedToken, 'utf8')));
}

/** The principal the existing single ingest token (`ingestToken`, `--ingest-token-file`, `EWP_INGEST_TOKEN`) is bound to. */
export const OPERATOR_PRINCIPAL = 'operator';

/** A bearer token bound to the principal it authenticates: a request presenting it writes as that principal. */
export interface PrincipalToken {
  principal: string;
  token: string;
}

/**
 * Check the tokens a server is given: each at least {@link MIN_INGEST_TOKEN_BYTES} bytes, each
 * principal a source name (`isSourceName` of @ewp/tools), no principal or token twice.
 * @throws WeakIngestTokenError for a short token; InvalidArgumentError naming `principals[i]` otherwise
 */
export function assertPrincipalTokens(tokens: readonly PrincipalToken[]): void {
  const names = new Set<string>();
  const digests = new Set<string>();
  tokens.forEach(({ principal, token }, i) => {
    if (typeof principal !== 'string' || !isSourceName(principal)) {
      throw new InvalidArgumentError(
        `principals[${i}].principal`,
        `${JSON.stringify(principal)} is not a principal name ([A-Za-z0-9][A-Za-z0-9._:@+-]*, no "/")`,
      );
    }
    if (names.has(principal)) throw new InvalidArgumentError(`principals[${i}].principal`, `${principal} is given two tokens`);
    assertIngestToken(token);
    const d = digest(Buffer.from(token, 'utf8')).toString('hex');
    if (digests.has(d)) throw new InvalidArgumentError(`principals[${i}].token`, `${principal}'s token is also another principal's`);
    names.add(principal);
    digests.add(d);
  });
}

/**
 * The principal whose token the request presents, or undefined (no token, or one no principal
 * holds). Every configured token is compared, each in constant time, so the time taken does not
 * say which one (or how much of one) matched.
 */
export function principalOf(headers: IncomingHttpHeaders, tokens: readonly PrincipalToken[]): string | undefined {
  if (tokens.length === 0) return undefined;
  const presented = presentedToken(headers);
  if (presented === undefined) return undefined;
  const given = digest(Buffer.from(presented, 'latin1'));
  let found: string | undefined;
  for (const { principal, token } of tokens) {
    if (timingSafeEqual(given, digest(Buffer.from(token, 'utf8'))) && found === undefined) found = principal;
  }
  return found;
}
