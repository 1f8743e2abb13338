// Bundles bench/history-reads.ts from the TypeScript sources (no stale dist is measured; workspace
// packages through their `@ewp/source` condition, everything else from node_modules) and runs it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';

const outfile = join(import.meta.dirname, '..', 'node_modules', '.cache', 'bench', 'history-reads.mjs');
await build({
  entryPoints: [join(import.meta.dirname, 'history-reads.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  conditions: ['@ewp/source'],
  outfile,
  logLevel: 'error',
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        // The shared bench helpers stay where they are (they locate the repository from their own URL).
        b.onResolve({ filter: /bench\/machine\.mjs$/ }, (args) => ({ path: join(args.resolveDir, args.path), external: true }));
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@ewp/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
});
// mem0ai reads MEM0_TELEMETRY when it loads: off, as everything here runs offline.
const run = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, MEM0_TELEMETRY: 'false' } });
process.exit(run.status ?? 1);
