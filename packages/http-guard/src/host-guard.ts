/**
 * The Host/Origin check of the EWP HTTP servers (the MCP server and `ewp inspect`): the defence
 * against DNS rebinding, where a page on a foreign name resolves to our address and reads the
 * ledger through the victim's browser. Free of any MCP SDK import so every HTTP server shares it.
 */
import { EwpError } from '@ewp/core';
import type { IncomingHttpHeaders } from 'node:http';

/** Host names that can only reach this machine. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1']);

/** A server bound beyond loopback without the allowed host names it must check. */
export class UnsafeBindError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.UnsafeBindError');
  constructor(message: string) {
    super('UNSAFE_BIND', message);
    this.name = 'UnsafeBindError';
  }
}

/** Whether a bind address or host name is loopback (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return LOOPBACK_NAMES.has(name) || /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(name);
}

/**
 * The host name of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower-cased, IPv6
 * without brackets; `undefined` when the header is anything else (so `[::1].evil.com` is not `::1`).
 */
export function hostNameOfHeader(header: string): string | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(header.trim());
  if (match === null) return undefined;
  return (match[1] ?? (match[2] as string)).toLowerCase();
}

/** The host name of an `Origin` header, as {@link hostNameOfHeader}; `undefined` when it has none. */
function hostNameOfOrigin(origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  return hostNameOfHeader(url.host);
}

/** Options of {@link createHostGuard}. */
export interface HostGuardOptions {
  /** The address the server binds to. */
  bindHost: string;
  /**
   * Host names (without port) clients may use besides loopback. Required, non-empty, when
   * `bindHost` is not loopback: a server reachable from elsewhere still checks every request.
   */
  allowedHosts?: readonly string[];
}

/** The verdict on one request's headers. */
export type HostGuardVerdict = { ok: true } | { ok: false; reason: 'missing host' | 'forbidden host' | 'forbidden origin' };

/** Checks the `Host` and `Origin` headers of a request. */
export type HostGuard = (headers: IncomingHttpHeaders) => HostGuardVerdict;

/**
 * Build the check for a server bound to `bindHost`. Loopback names are always allowed (the server
 * is reachable there too); any other name only when listed. A request without `Host` (allowed in
 * HTTP/1.0) is refused: the check cannot tell where it was sent. The opaque `Origin: null` passes:
 * it names no foreign site.
 * @throws UnsafeBindError `UNSAFE_BIND` when `bindHost` is not loopback and no host name is allowed
 */
export function createHostGuard(options: HostGuardOptions): HostGuard {
  const allowed = new Set<string>();
  for (const name of options.allowedHosts ?? []) {
    const parsed = hostNameOfHeader(name);
    if (parsed === undefined) throw new UnsafeBindError(`allowed host ${JSON.stringify(name)} is not a host name`);
    allowed.add(parsed);
  }
  if (!isLoopbackHost(options.bindHost) && allowed.size === 0) {
    throw new UnsafeBindError(`binding to ${options.bindHost} (beyond loopback) needs the host names clients use (--allowed-host NAME, repeatable)`);
  }
  const permitted = (name: string | undefined) => name !== undefined && (isLoopbackHost(name) || allowed.has(name));
  return (headers) => {
    const host = headers.host;
    if (host === undefined) return { ok: false, reason: 'missing host' };
    if (!permitted(hostNameOfHeader(host))) return { ok: false, reason: 'forbidden host' };
    const origin = headers.origin;
    if (origin !== undefined && origin !== 'null' && !permitted(hostNameOfOrigin(origin))) return { ok: false, reason: 'forbidden origin' };
    return { ok: true };
  };
}
