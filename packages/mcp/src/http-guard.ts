/**
 * The Host/Origin check lives in `@ewp/http-guard` (shared with `ewp inspect`, which must not pull
 * in the MCP SDK); this subpath keeps `@ewp/mcp/http-guard` importable.
 */
export * from '@ewp/http-guard';
