// Writes the committed scenario set, scenarios/harm-v1.jsonl, from the seeded generator
// (src/generator.ts, bundled on the fly so no build is needed). `--check` exits 1 when the committed
// file differs from what the generator writes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, '../scenarios/harm-v1.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'ewp-harm-gen-'));
try {
  const bundle = join(dir, 'generator.mjs');
  await build({
    entryPoints: [join(here, '../src/generator.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  const { generateScenarios, scenariosJsonl } = await import(bundle);
  const text = scenariosJsonl(generateScenarios({ seed: 37 }));
  if (process.argv.includes('--check')) {
    const same = readFileSync(target, 'utf8') === text;
    console.error(same ? 'scenarios/harm-v1.jsonl is up to date' : 'scenarios/harm-v1.jsonl differs from the generator: run node scripts/generate.mjs');
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(target, text);
    console.error(`wrote ${target} (${text.split('\n').length - 1} scenarios)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
