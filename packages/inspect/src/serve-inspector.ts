/**
 * The inspector's HTTP server: the built page (dist/web) and the read-only JSON API, on loopback by
 * default, behind the same Host/Origin guard as the MCP server. Only GET and HEAD exist: any other
 * method is 405, so nothing can be written through it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EwpError, type RiskPolicy } from '@ewp/core';
import type { InspectErrorCode } from './errors.js';
import { createGuardedServer, type GuardedRequest, type HttpLimits } from '@ewp/http-guard';
import type { EvidenceStore } from '@ewp/ledger';
import { type StoreOpener, verifyChainInWorker } from './chain-status.js';
import { type AdapterLossReport, InspectorApi, InspectorRequestError, type LossReportPanel } from './inspector-api.js';
import type { MemoryOptions } from './memory-facts.js';

/** Default port of `ewp inspect` (the MCP server's is 8765). */
export const DEFAULT_INSPECT_PORT = 8766;

/**
 * The page may load only its own files, and runs no inline script or style: a ledger's text is
 * shown as text, never as markup, and nothing is fetched from elsewhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.map': 'application/json',
  '.ico': 'image/x-icon',
};

/** Options of {@link serveInspector}. */
export interface InspectorOptions {
  /** Any EvidenceStore: a ledger, or a Mem0, Zep or LangGraph store through its @ewp adapter. Only read. */
  store: EvidenceStore;
  /** Bind address. Default `127.0.0.1`: loopback only. */
  host?: string;
  /** Default {@link DEFAULT_INSPECT_PORT}; 0 picks a free port. */
  port?: number;
  /** Host names clients may use besides loopback; required when `host` is not loopback. */
  allowedHosts?: readonly string[];
  /** The action policy the gate table applies (docs/spec/protocol.md §9). Default: both high-risk flags on. */
  riskPolicy?: RiskPolicy;
  /** A name for the ledger shown in the page header (a file name, "Mem0 (oss)"). */
  label?: string;
  /**
   * The adapter in front of the store (`mem0-oss`, `mem0-hosted`, `zep`, …), whose measured loss
   * report the trust panel shows. Leave it out for a native ledger (SQLite, PostgreSQL, JSON files).
   */
  adapter?: string;
  /** Clock for "now" (the page's default T and the list's axes). */
  clock?: () => Date;
  /** Where the built page lives. Default: the package's `dist/web`. */
  assetsDir?: string;
  /**
   * How a worker thread opens its own read-only handle on the ledger, so the audit chain is
   * verified off the event loop (requests are answered meanwhile). Without it the chain is verified
   * with the store's `verifyChain` on this thread.
   */
  chainOpener?: StoreOpener;
  /** The HTTP limits and budgets (timeouts, sizes, connections); see `@ewp/http-guard`. */
  limits?: Partial<HttpLimits>;
  /**
   * The evidence layer (@ewp/memory) of a ledger that holds memories: where their salience is kept
   * (it lives outside the ledger; `ewp inspect` passes `<ledger>.salience.jsonl`) and the
   * configuration they were written under. Class, confidence and gate history need nothing: they
   * are read from the ledger.
   */
  memory?: MemoryOptions;
}

/** A running inspector. */
export interface Inspector {
  /** `http://host:port/` */
  url: string;
  host: string;
  port: number;
  http: HttpServer;
  /** The HTTP limits in force. */
  limits: Readonly<HttpLimits>;
  /** Stop listening. The store stays open: it belongs to the caller. */
  close(): Promise<void>;
}

/** The page is not built (the package's `build` runs `vite build` into dist/web). */
export class InspectorAssetsMissingError extends EwpError<InspectErrorCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.InspectorAssetsMissingError');
  constructor(dir: string) {
    super('INSPECTOR_ASSETS_MISSING', `the inspector page is not built: no index.html in ${dir} (run the package build)`);
    this.name = 'InspectorAssetsMissingError';
  }
}

/** dist/web beside the built module, or (running from src/ in tests) the package's dist/web. */
function defaultAssetsDir(): string {
  const beside = fileURLToPath(new URL('./web/', import.meta.url));
  if (existsSync(join(beside, 'index.html'))) return beside;
  return fileURLToPath(new URL('../dist/web/', import.meta.url));
}

/** The loss report of `ewp conformance`, shipped in dist/ by the build (copied from docs/loss-reports.json). */
function lossPanel(assetsDir: string, adapter: string | undefined): LossReportPanel {
  let adapters: AdapterLossReport[] = [];
  const file = join(assetsDir, '..', 'loss-reports.json');
  if (existsSync(file)) adapters = (JSON.parse(readFileSync(file, 'utf8')) as { adapters: AdapterLossReport[] }).adapters;
  return {
    adapter: adapter ?? null,
    report: adapters.find((a) => a.adapter === adapter) ?? null,
    covered: adapters.map((a) => a.adapter),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, head: boolean, headers: Record<string, string> = {}): void {
  // Encoded once: a large snapshot is tens of megabytes.
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(head ? undefined : bytes);
}

/**
 * Serve the inspector over `store`, read-only. Resolves once it listens.
 * @throws UnsafeBindError when `host` is beyond loopback and no `allowedHosts` are given;
 *   InspectorAssetsMissingError when the page is not built.
 */
export async function serveInspector(options: InspectorOptions): Promise<Inspector> {
  const host = options.host ?? '127.0.0.1';
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  if (!existsSync(join(assetsDir, 'index.html'))) throw new InspectorAssetsMissingError(assetsDir);
  const now = options.clock ?? (() => new Date());
  const api = new InspectorApi(options.store, {
    riskPolicy: options.riskPolicy ?? {},
    label: options.label ?? 'ledger',
    loss: lossPanel(assetsDir, options.adapter),
    now,
    ...(options.chainOpener === undefined ? {} : { verifyChain: () => verifyChainInWorker(options.chainOpener as StoreOpener) }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
  });
  const root = normalize(assetsDir.endsWith(sep) ? assetsDir : assetsDir + sep);

  /** `path` is percent-decoded (the guard refused malformed escapes). */
  async function sendAsset(res: ServerResponse, path: string, head: boolean): Promise<void> {
    const relative = path === '/' ? 'index.html' : path.slice(1);
    const file = normalize(join(root, relative));
    if (!file.startsWith(root)) return sendJson(res, 404, { error: 'not found' }, head);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return sendJson(res, 404, { error: 'not found' }, head);
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      // Built file names carry a content hash; index.html does not.
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(head ? undefined : body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, request: GuardedRequest): Promise<void> {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) return sendJson(res, 405, { error: 'method not allowed: the inspector is read-only' }, false, { allow: 'GET, HEAD' });
    const { path, query } = request.target;
    try {
      if (path === '/api/meta') return sendJson(res, 200, api.meta(), head);
      if (path === '/api/chain') return sendJson(res, 200, await api.chain(query), head);
      if (path === '/api/propositions') return sendJson(res, 200, await api.propositions(query), head);
      if (path === '/api/proposition') return sendJson(res, 200, await api.proposition(query), head);
      if (path === '/api/memory') return sendJson(res, 200, await api.memory(query), head);
      if (path === '/api/decisions') return sendJson(res, 200, await api.decisions(query), head);
      if (path.startsWith('/api/')) return sendJson(res, 404, { error: 'not found' }, head);
    } catch (error) {
      if (InspectorRequestError.isInstance(error)) return sendJson(res, error.status, { error: error.message }, head);
      // A store failure (closed, damaged, unreachable) is reported, never hidden.
      const code = EwpError.isInstance(error) ? error.code : 'INTERNAL';
      return sendJson(res, 500, { error: (error as Error).message, code }, head);
    }
    return sendAsset(res, path, head);
  }

  const guarded = await createGuardedServer(
    {
      bindHost: host,
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      headers: SECURITY_HEADERS,
    },
    handle,
  );
  const address = await guarded.listen(options.port ?? DEFAULT_INSPECT_PORT);
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    host: address.address,
    port: address.port,
    http: guarded.http,
    limits: guarded.limits,
    close: async () => {
      await guarded.close();
      api.close();
    },
  };
}
