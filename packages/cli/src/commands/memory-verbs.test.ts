/** The memory verbs over a real SQLite file: store, recall, evidence, memory checkout/readback. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { memoryCommand } from './memory-checkout.js';
import { memoryEvidenceCommand } from './memory-evidence.js';
import { memoryRecallCommand } from './memory-recall.js';
import { memoryStoreCommand } from './memory-store.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-cli-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

describe('memory verbs', () => {
  it('store --class --supports, recall --class --confidence-min, evidence show/audit/gate-stats, over a SQLite ledger', async () => {
    const db = ['--db', join(dir, `m-${++n}.sqlite`)];
    const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd([...args, ...db], io), { cwd: dir });
    const h = JSON.parse((await run(memoryStoreCommand, 'The scheduler is misconfigured on every host', '--class', 'hypothesis', '--json')).stdout);
    expect(h).toMatchObject({ class: 'hypothesis', confidence: 0, status: 'stored' });
    for (let i = 0; i < 6; i += 1) expect((await run(memoryRecallCommand, 'scheduler')).code).toBe(0);
    const recalled = await run(memoryRecallCommand, 'scheduler', '--class', 'hypothesis');
    expect(recalled.stdout).toContain(`${h.hash}  hypothesis  confidence   0  The scheduler is misconfigured`);
    expect((await run(memoryRecallCommand, 'scheduler', '--confidence-min', '1')).stdout).toBe('(nothing recalled)\n');
    // Salience survived between processes in the side file.
    const shown = JSON.parse((await run(memoryEvidenceCommand, 'show', h.hash, '--json')).stdout);
    expect(shown.salience).toMatchObject({ recall_count: 7, importance: 0 });
    const o = await run(memoryStoreCommand, 'Host eu-3 scheduler drifts by 10 minutes', '--class', 'observation', '--source', 'ntp', '--supports', h.hash);
    expect(o.code).toBe(0);
    expect(o.stdout).toMatch(new RegExp(`supports ${h.hash}: independent; its confidence 48, distinct sources 1`));
    const audit = await run(memoryEvidenceCommand, 'audit', h.hash);
    expect(audit).toMatchObject({ code: 0 });
    expect(audit.stdout).toMatch(/^chain OK/);
    expect(audit.stdout).toContain('memory.promo_gate');
    expect(JSON.parse((await run(memoryEvidenceCommand, 'gate-stats', '--json')).stdout)).toMatchObject({ blocked: 1 });
  });

  it('refuses an inference as support with its code and the id, exit 1; bad usage exit 2', async () => {
    const db = ['--db', join(dir, `m-${++n}.sqlite`)];
    const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd([...args, ...db], io), { cwd: dir });
    const claim = JSON.parse((await run(memoryStoreCommand, 'The window is safe', '--class', 'inference', '--json')).stdout);
    const inf = JSON.parse((await run(memoryStoreCommand, 'So nothing runs at 05:55', '--class', 'inference', '--json')).stdout);
    const r = await run(memoryEvidenceCommand, 'link', inf.hash, claim.hash);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('EWP_REFUSE_MEMORY_SUPPORT_CLASS');
    expect(r.stderr).toContain(inf.hash);
    expect((await run(memoryStoreCommand, 'x')).code).toBe(2);
    expect((await run(memoryEvidenceCommand, 'frobnicate')).code).toBe(2);
    expect((await run(memoryRecallCommand, '--confidence-min', 'high')).code).toBe(2);
  });

  it('memory checkout writes MEMORY.md; an edited line read back is a new inference', async () => {
    const db = ['--db', join(dir, `m-${++n}.sqlite`)];
    const run = (cmd: typeof memoryStoreCommand, ...args: string[]) => runCaptured((io) => cmd([...args, ...db], io), { cwd: dir });
    const claim = JSON.parse((await run(memoryStoreCommand, 'The window is safe', '--class', 'inference', '--json')).stdout);
    await run(memoryStoreCommand, 'Backup starts 06:00 per scheduler', '--class', 'observation', '--source', 'scheduler', '--supports', claim.hash);
    await run(memoryStoreCommand, 'Cron lists 0 6 * * *', '--class', 'observation', '--source', 'cron', '--supports', claim.hash);
    const out = join(dir, `MEMORY-${n}.md`);
    expect((await run(memoryCommand, 'checkout', '--out', out)).code).toBe(0);
    const md = readFileSync(out, 'utf8');
    expect(md).toContain(`- [INFERENCE] The window is safe  _(inference · confidence 66`);
    writeFileSync(out, md.replace('The window is safe', 'The window is always safe'));
    const back = await run(memoryCommand, 'readback', out, '--json');
    expect(JSON.parse(back.stdout).asserted).toMatchObject([{ text: 'The window is always safe', class: 'inference', confidence: 0 }]);
  });
});
