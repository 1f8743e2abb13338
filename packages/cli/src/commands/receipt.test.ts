import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { receiptCommand } from './receipt.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-receipt-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keys = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/signed-receipts.json', import.meta.url)), 'utf8')).keys;
const fixture = fileURLToPath(new URL('../../../../conformance/pack/fixtures/06-derived.json', import.meta.url));

function run(args: string[], stdin = '') {
  return runCaptured((io) => receiptCommand(args, io), { stdin, cwd: dir });
}

describe('ewp receipt issue|verify', () => {
  writeFileSync(join(dir, 'seed.hex'), `${keys['key-1'].seed_hex}\n`);
  writeFileSync(join(dir, 'keys.json'), JSON.stringify({ 'key-1': { public_hex: keys['key-1'].public_hex, state: 'ACTIVE' } }));
  writeFileSync(join(dir, 'revoked.json'), JSON.stringify({ 'key-1': { public_hex: keys['key-1'].public_hex, state: 'REVOKED' } }));

  it('issues a signed receipt and verifies it against the same view', async () => {
    const issued = await run(['issue', fixture, '--key', 'seed.hex', '--key-id', 'key-1', '--out', 'r.json']);
    expect(issued.code).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(doc.receipt.warrant_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(doc.signed.key_id).toBe('key-1');
    const ok = await run(['verify', 'r.json', fixture, '--keys', 'keys.json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, status: 'VERIFIED' });
    const unsignedCheck = await run(['verify', 'r.json', fixture]);
    expect(JSON.parse(unsignedCheck.stdout)).toMatchObject({ ok: true, status: 'BOUND' });
    const revoked = await run(['verify', 'r.json', fixture, '--keys', 'revoked.json']);
    expect(revoked.code).toBe(1);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ ok: false, status: 'REVOKED_KEY' });
  });

  it('a file from issue --key: its top-level receipt copy and digest must match the signed receipt', async () => {
    await run(['issue', fixture, '--key', 'seed.hex', '--key-id', 'key-1', '--out', 'signed.json']);
    const doc = JSON.parse(readFileSync(join(dir, 'signed.json'), 'utf8'));
    const cases: [string, (d: typeof doc) => void, string[]][] = [
      ['the copy names another view', (d) => (d.receipt.view_id = 'v-other'), ['receipt.view_id']],
      ['the copy has an extra field', (d) => (d.receipt.note = 'x'), ['receipt.note']],
      ['the copy is not an object', (d) => (d.receipt = 'x'), ['receipt']],
      ['the digest beside it', (d) => (d.receipt_digest = '0'.repeat(64)), ['receipt_digest']],
    ];
    for (const [name, alter, fields] of cases) {
      const altered = structuredClone(doc);
      alter(altered);
      writeFileSync(join(dir, 'altered.json'), JSON.stringify(altered));
      for (const keyArgs of [['--keys', 'keys.json'], []]) {
        const r = await run(['verify', 'altered.json', fixture, ...keyArgs]);
        expect(r.code, name).toBe(1);
        expect(JSON.parse(r.stdout), name).toMatchObject({ ok: false, status: 'MISMATCH', mismatches: fields });
        expect(r.stderr, name).toContain(`MISMATCH: ${fields.join(', ')}: not what the signed receipt says`);
      }
    }
    // Unsigned output: its receipt_digest is checked too.
    await run(['issue', fixture, '--out', 'plain-d.json']);
    const plain = JSON.parse(readFileSync(join(dir, 'plain-d.json'), 'utf8'));
    writeFileSync(join(dir, 'plain-d.json'), JSON.stringify({ ...plain, receipt_digest: 'f'.repeat(64) }));
    expect(JSON.parse((await run(['verify', 'plain-d.json', fixture])).stdout)).toMatchObject({ ok: false, mismatches: ['receipt_digest'] });
    // A key given twice in the receipt file is refused (exit 2), never read last-wins.
    writeFileSync(join(dir, 'twice.json'), JSON.stringify(doc).replace('"receipt":{', '"receipt":{"view_id":"v-x",'));
    expect(await run(['verify', 'twice.json', fixture])).toMatchObject({ code: 2, stderr: expect.stringContaining('DUPLICATE_KEY') });
  });

  it('fails closed when the view changed, and reads the view from stdin', async () => {
    await run(['issue', fixture, '--out', 'plain.json']);
    const view = JSON.parse(readFileSync(fixture, 'utf8'));
    view.assertions[0].text = 'something else';
    const changed = await run(['verify', 'plain.json', '-'], JSON.stringify(view));
    expect(changed.code).toBe(1);
    expect(JSON.parse(changed.stdout)).toMatchObject({ ok: false, status: 'MISMATCH' });
    expect(changed.stderr).toContain('MISMATCH');
  });

  it('verifies EvidenceBound signed proof receipts against a checkpoint (vectors)', async () => {
    const sr = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/receipts/vectors/signed-receipts.json', import.meta.url)), 'utf8'));
    const ok = sr.verify_cases.find((c: { id: string }) => c.id === 'verified-active');
    const tampered = sr.verify_cases.find((c: { id: string }) => c.id === 'checkpoint-tampered-binding');
    const cpOf = (c: { checkpoint: unknown }) => (typeof c.checkpoint === 'string' ? sr.checkpoints[c.checkpoint] : c.checkpoint);
    writeFileSync(join(dir, 'envelope.json'), JSON.stringify(ok.envelope));
    writeFileSync(join(dir, 'cp.json'), JSON.stringify(cpOf(ok)));
    writeFileSync(join(dir, 'cp-tampered.json'), JSON.stringify(cpOf(tampered)));
    const verified = await run(['verify', 'envelope.json', 'cp.json', '--keys', 'keys.json']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ status: 'VERIFIED', verified: true });
    const bad = await run(['verify', 'envelope.json', 'cp-tampered.json', '--keys', 'keys.json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ status: 'INVALID_BINDING', signature_valid: true });
    const noKeys = await run(['verify', 'envelope.json', 'cp.json']);
    expect(JSON.parse(noKeys.stdout)).toMatchObject({ status: 'UNKNOWN_KEY', verified: false });
  });

  it('refuses invalid views with a typed error and bad arguments with exit 2', async () => {
    const bad = await run(['issue', '-', '--at', '2026-01-01T00:00:00Z'], '{"proposition_id": ""}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/refused \([A-Z_]+\)/);
    expect((await run(['issue'])).code).toBe(2);
    expect((await run(['issue', fixture, '--key', 'seed.hex'])).code).toBe(2);
    expect((await run(['verify', 'missing.json', fixture])).code).toBe(2);
    expect((await run(['frobnicate'])).code).toBe(2);
  });
});
