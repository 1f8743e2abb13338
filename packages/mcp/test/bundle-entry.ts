/** Bundle a TypeScript entry (workspace packages from their sources) into one runnable .mjs file. */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { sqliteDriverFromSources } from '../../ledger/test-support/bundle-from-sources.mjs';

/**
 * Native and driver packages stay outside the bundle, imported by absolute path (resolved from the
 * package that imports them), so the bundle runs from a temporary directory.
 */
const externalByPath: Plugin = {
  name: 'external-by-path',
  setup(b) {
    b.onResolve({ filter: /^(better-sqlite3|pg)$/ }, (args) => ({
      path: createRequire(join(args.resolveDir, 'noop.js')).resolve(args.path),
      external: true,
    }));
  },
};

export async function bundleEntry(entry: string): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'ewp-mcp-')), 'entry.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@ewp/source'],
    plugins: [externalByPath, sqliteDriverFromSources],
    logLevel: 'error',
    // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __ewpRequire } from 'node:module'; const require = __ewpRequire(import.meta.url);" },
  });
  return outfile;
}
