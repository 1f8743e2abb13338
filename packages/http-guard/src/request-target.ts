/**
 * The request target (`/path?query`) read once for every EWP HTTP server, so a malformed one is a
 * 400 at the door rather than an exception deep in a handler.
 */

/** A well-formed origin-form target. */
export interface RequestTarget {
  /** The path as sent (still percent-encoded): route patterns match it segment by segment. */
  rawPath: string;
  /** The path percent-decoded as UTF-8. */
  path: string;
  /** The query parameters (`+` and percent-escapes decoded as by `URLSearchParams`). */
  query: URLSearchParams;
}

/**
 * Read a request target. Only the origin form (`/…`) is served; an absolute or asterisk form, a
 * percent sign not followed by two hex digits (`/%`, `/%zz`), or escapes that are not UTF-8
 * (`/%ff`, the overlong `/%c0%ae`), in the path or the query, give the reason it is refused.
 */
export function parseRequestTarget(target: string): RequestTarget | { refused: string } {
  if (!target.startsWith('/')) return { refused: 'the request target must be a path starting with /' };
  const queryAt = target.indexOf('?');
  const rawPath = queryAt < 0 ? target : target.slice(0, queryAt);
  const rawQuery = queryAt < 0 ? '' : target.slice(queryAt + 1);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { refused: 'malformed percent-encoding in the path (an escape is not %XX, or the bytes are not UTF-8)' };
  }
  // URLSearchParams would turn a bad escape into U+FFFD silently; a parameter that is not UTF-8 is refused instead.
  for (const part of rawQuery.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return { refused: 'malformed percent-encoding in the query (an escape is not %XX, or the bytes are not UTF-8)' };
    }
  }
  return { rawPath, path, query: new URLSearchParams(rawQuery) };
}
