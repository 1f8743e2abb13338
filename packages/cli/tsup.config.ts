import { ewpTsup } from '../../tsup.shared.js';

export default ewpTsup({
  entry: ['src/index.ts', 'src/bin.ts'],
  dts: { entry: 'src/index.ts' },
  splitting: true,
  // `ewp serve` bundles the MCP server with the SDK, zod and ajv (about 260 modules as installed):
  // one chunk loads in a quarter less time than resolving and linking them file by file.
  noExternal: ['@ewp/mcp'],
  // Every dependency and peer stays external (tsup's default), the optional peers @ewp/postgres, @ewp/inspect
  // and @ewp/conformance included: their `import()` inside a command stays lazy, and a missing one is a
  // PACKAGE_NOT_INSTALLED refusal rather than code bundled into every install.
  // `ewp bench harm` loads the repository's private bench package from a checkout; never bundled.
  external: ['@ewp/harm-bench'],
  // No comments or indentation: smaller, and ASCII only (a comment's em dash made V8 decode and
  // parse the whole 1.2 MB chunk as two-byte text). Names stay, and source maps map lines back.
  minifyWhitespace: true,
  // Lists what the chunks bundle, for dist/THIRD_PARTY_LICENSES.md (scripts/third-party-licenses.mjs).
  metafile: true,
  // Bundled CommonJS (ajv) requires Node built-ins.
  banner: { js: "import { createRequire as __ewpCreateRequire } from 'node:module';\nconst require = __ewpCreateRequire(import.meta.url);" },
});
