import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACK_DIR } from '@ewp/conformance';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { auditCommand } from './audit.js';
import { ingestCommand } from './ingest.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-audit-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quickstart = join(PACK_DIR, 'examples', 'quickstart.json');
const run = (command: typeof auditCommand, args: string[]) => runCaptured((io) => command(args, io), { cwd: dir });

async function head(db: string): Promise<string> {
  const r = await run(auditCommand, ['verify', '--db', db, '--json']);
  expect(r.code).toBe(0);
  const { length, head } = JSON.parse(r.stdout) as { length: number; head: string };
  return `${length}:${head}`;
}

describe('ewp audit verify --expect-head', () => {
  it('passes while the ledger reaches the kept head, and fails when its tail was cut (anchor and all) or its history replaced', async () => {
    await run(ingestCommand, [quickstart, '--db', 'a.sqlite', '--attest-trusted-origins']);
    copyFileSync(join(dir, 'a.sqlite'), join(dir, 'before.sqlite'));
    const early = await head('a.sqlite');
    writeFileSync(join(dir, 'more.json'), JSON.stringify({ proposition_id: 'P-more', view_id: 'v1' }));
    await run(ingestCommand, ['more.json', '--db', 'a.sqlite']);
    const late = await head('a.sqlite');
    expect(late).not.toBe(early);
    // The ledger grew past the early head and ends at the late one.
    expect((await run(auditCommand, ['verify', '--db', 'a.sqlite', '--expect-head', early])).code).toBe(0);
    expect((await run(auditCommand, ['verify', '--db', 'a.sqlite', '--expect-head', late])).code).toBe(0);
    // A copy from before the last ingest is that ledger with its tail cut and its anchor rewritten: it verifies on its own, not against the kept head.
    expect((await run(auditCommand, ['verify', '--db', 'before.sqlite'])).code).toBe(0);
    const cut = await run(auditCommand, ['verify', '--db', 'before.sqlite', '--expect-head', late]);
    expect(cut.code).toBe(1);
    expect(cut.stdout).toMatch(/FAIL at index \d+: shorter_than_expected_head/);
    // Another history of the same length.
    await run(ingestCommand, ['more.json', '--db', 'other.sqlite']);
    await run(ingestCommand, [quickstart, '--db', 'other.sqlite', '--attest-trusted-origins']);
    expect(await head('other.sqlite')).toMatch(new RegExp(`^${late.split(':')[0]}:`));
    const other = await run(auditCommand, ['verify', '--db', 'other.sqlite', '--expect-head', late, '--json']);
    expect(other.code).toBe(1);
    expect(JSON.parse(other.stdout)).toMatchObject({ ok: false, reason: 'expected_head_mismatch' });
  });

  it('refuses a head that is not LENGTH:HASH (exit 2)', async () => {
    const r = await run(auditCommand, ['verify', '--db', 'a.sqlite', '--expect-head', '3:xyz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ewp audit: --expect-head: expected LENGTH:HASH/);
  });
});
