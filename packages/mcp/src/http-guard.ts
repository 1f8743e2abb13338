/**
 * The Host/Origin check lives in `@ewp/http-guard` (shared with `ewp inspect`, which must not pull
 * in the MCP SDK); this subpath keeps `@ewp/mcp/http-guard` importable.
 */
export {
  createHostGuard,
  type HostGuard,
  type HostGuardOptions,
  type HostGuardVerdict,
  hostNameOfHeader,
  isLoopbackHost,
  UnsafeBindError,
} from '@ewp/http-guard';
