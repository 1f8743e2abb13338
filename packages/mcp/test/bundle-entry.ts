/** Bundle a TypeScript entry (workspace packages from their sources) into one runnable .mjs file. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function bundleEntry(entry: string): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'ewp-mcp-')), 'entry.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    external: ['better-sqlite3', 'pg'],
    logLevel: 'error',
    // CommonJS dependencies (ajv) call require(); give the ESM bundle one.
    banner: { js: "import { createRequire as __ewpRequire } from 'node:module'; const require = __ewpRequire(import.meta.url);" },
  });
  return outfile;
}
