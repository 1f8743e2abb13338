import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { canonicalCommand } from './canonical.js';

async function run(args: string[], stdin: string | Buffer): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  const r = await runCaptured((io) => canonicalCommand(args, io), { stdin });
  return { code: r.code, stdout: r.stdoutBytes, stderr: r.stderr };
}

const extended = JSON.parse(readFileSync(fileURLToPath(new URL('../../../../packages/canonical/vectors/ebcj1-extended.json', import.meta.url)), 'utf8'));

describe('ewp canonical', () => {
  it('writes EBCJ-1 bytes and evidence digests for every extended vector', async () => {
    for (const v of extended.vectors) {
      const bytes = await run([], v.input_json);
      expect(bytes.code, v.id).toBe(0);
      expect(bytes.stdout.toString('hex'), v.id).toBe(v.canonical_hex);
      const digest = await run(['--ebcj1', '--digest', 'evidence'], v.input_json);
      expect(digest.stdout.toString('utf8'), v.id).toBe(`${v.digests.evidence}\n`);
    }
  });
  it('keeps large integers exact', async () => {
    const r = await run([], '{"n": 18446744073709551616, "m": -9007199254740993}');
    expect(r.stdout.toString()).toBe('{"m":-9007199254740993,"n":18446744073709551616}');
  });
  it('refuses every invalid_text vector with exit 1 and a typed error', async () => {
    for (const c of extended.invalid_text) {
      const r = await run([], c.input_json);
      expect(r.code, c.id).toBe(1);
      expect(r.stdout.length).toBe(0);
      expect(r.stderr).toMatch(/refused \((FLOAT|LONE_SURROGATE|DUPLICATE_KEY|INTEGER_TOO_LONG)\) at \$/);
    }
  });
  it('--jcs accepts floats and writes RFC 8785 bytes', async () => {
    const r = await run(['--jcs'], '{"b": 1.50, "a": 1e30, "c": [0.1]}');
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe('{"a":1e+30,"b":1.5,"c":[0.1]}');
    const d = await run(['--jcs', '--digest', 'ewp-view'], '{"b": 1.50}');
    expect(d.stdout.toString()).toMatch(/^[0-9a-f]{64}\n$/);
  });
  it('bad JSON, bad UTF-8 and bad arguments', async () => {
    expect((await run([], '{"a":')).code).toBe(1);
    expect((await run([], Buffer.from([0x22, 0xff, 0x22]))).code).toBe(1);
    expect((await run(['--ebcj1', '--jcs'], '1')).code).toBe(2);
    expect((await run(['--digest', 'bad domain'], '1')).code).toBe(2);
    expect((await run(['--nope'], '1')).code).toBe(2);
  });
});
