import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { EvalPool } from './eval-pool.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-eval-pool-'));
function script(name: string, text: string): URL {
  const file = join(dir, name);
  writeFileSync(file, text);
  return pathToFileURL(file);
}
const pools: EvalPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('EvalPool', () => {
  it('answers each batch with its own result, in order, across workers', async () => {
    const echo = script(
      'echo.mjs',
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', (lines) => parentPort.postMessage({ out: lines.join('|'), failed: lines.length }));\n`,
    );
    const pool = new EvalPool(3, echo);
    pools.push(pool);
    const batches = Array.from({ length: 20 }, (_, i) => Array.from({ length: (i % 4) + 1 }, (_, j) => `${i}.${j}`));
    const results = await Promise.all(batches.map((b) => pool.evaluate(b)));
    expect(results.map((r) => r.out)).toEqual(batches.map((b) => b.join('|')));
  });

  it('rejects the batches of a worker that throws, and every later batch', async () => {
    const broken = script(
      'broken.mjs',
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => { throw new Error('worker bug'); });\n`,
    );
    const pool = new EvalPool(1, broken);
    pools.push(pool);
    await expect(pool.evaluate(['a'])).rejects.toThrow('worker bug');
    await expect(pool.evaluate(['b'])).rejects.toThrow('worker bug');
  });

  it('rejects the unanswered batches of a worker that exits', async () => {
    const quitter = script('quitter.mjs', `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n`);
    const pool = new EvalPool(1, quitter);
    pools.push(pool);
    await expect(pool.evaluate(['a'])).rejects.toThrow(/stopped \(exit 3\) with 1 batches unanswered/);
  });
});
