/** The HTTP ingest role: a bearer token compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

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
