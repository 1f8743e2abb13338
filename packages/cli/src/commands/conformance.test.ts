import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvidenceView } from '@ewp/core';
import type { AdapterSubject, MemoryAdapter } from '@ewp/conformance/adapter-suite';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { type ModuleLoader, runConformanceCommand } from './conformance.js';

function run(args: string[], load?: ModuleLoader, cwd = process.cwd()) {
  return runCaptured((io) => runConformanceCommand(args, io, load), { cwd });
}

/** A map-backed store; `lossy` drops asserted_by on the way back (a mapping loss). */
function subject(name: string, lossy: boolean): AdapterSubject {
  return {
    name,
    capabilities: { search: false, nativeRecords: false },
    expectedLoss: { adapter: name, losses: [] },
    async create(): Promise<MemoryAdapter> {
      const stored = new Map<string, EvidenceView>();
      return {
        put: async (v) => void stored.set((v as EvidenceView).proposition_id, structuredClone(v as EvidenceView)),
        get: async (pid) => {
          const v = structuredClone(stored.get(pid)!);
          return lossy ? { ...v, assertions: v.assertions.map((a) => ({ ...a, asserted_by: 'x' })) } : v;
        },
      };
    },
  };
}

const notFound = (spec: string) => Object.assign(new Error(`Cannot find package '${spec}'`), { code: 'ERR_MODULE_NOT_FOUND' });
const loader =
  (subjects: AdapterSubject[]): ModuleLoader =>
  async (spec) => {
    if (spec === 'fake-adapters') return { conformanceSubjects: () => subjects };
    throw notFound(spec);
  };

const dir = mkdtempSync(join(tmpdir(), 'ewp-conformance-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ewp conformance', () => {
  it('skips adapters that are not installed and passes a lossless one', async () => {
    const r = await run(['--module', 'fake-adapters'], loader([subject('good', false)]));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('skipped @ewp/langchain/conformance (not installed');
    // Mem0 and Zep run offline only on the repository's test doubles; elsewhere, against a deployment.
    expect(r.stderr).toContain('skipped mem0 (mem0-oss, mem0-hosted) runs against your Mem0: --mem0 URL (offline, on the test doubles of @ewp/mem0-testing');
    expect(r.stderr).toContain('skipped zep runs against your Zep: --zep URL (offline, on the test doubles of @ewp/zep-testing');
    expect(r.stderr).not.toContain('mem0-testing/conformance (not installed');
    expect(r.stdout).toContain('| good | 52 | 52 | 52 | 0 (0) | 0 | 0 | — | 0 | 0 | 0 | pass |');
  });

  it('a live Mem0 or Zep target whose adapter package is not installed: exit 2 with the install command', async () => {
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'k\n', { mode: 0o600 });
    for (const [flag, pkg] of [
      ['--mem0', '@ewp/mem0'],
      ['--zep', '@ewp/zep'],
    ] as const) {
      const r = await run([flag, 'https://api.example.test', '--secret-file', keyFile], loader([]), dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`npm install ${pkg}`);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    }
  });

  it('fails (exit 1) on an unlisted loss and prints it; --json gives the counts', async () => {
    const r = await run(['--module', 'fake-adapters', '--json'], loader([subject('bad', true)]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unexpected ADAPTER_MAP_LOSS \S+ assertions\[\*\]\.asserted_by/);
    const json = JSON.parse(r.stdout);
    const count = json.adapters[0].losses.ADAPTER_MAP_LOSS['assertions[*].asserted_by'];
    expect(count.observations).toBeGreaterThan(0);
    // One observation per differing record: more observations than fixtures, every fixture seen.
    expect(count.fixtures).toBe(52);
    expect(count.observations).toBeGreaterThan(52);
    expect(r.stderr).toMatch(
      /^bad: 52 fixtures; (\d+) loss\(es\) \(0 listed, \1 unexpected\); 0 stale list entries; 0 error\(s\); 0 EXPECTED_DIVERGENCE observation\(s\), never failures: FAIL$/m,
    );
    expect(json.generated_by).toBe('ewp conformance --module fake-adapters --json');
    expect(json.adapters[0].ok).toBe(false);
  });

  it('filters with --adapter and refuses an unknown one (exit 2)', async () => {
    const both = loader([subject('alpha-one', false), subject('beta', true)]);
    const r = await run(['--module', 'fake-adapters', '--adapter', 'alpha'], both);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('| beta |');
    // Adapters that were not asked for are not worth a note when they are missing.
    expect(r.stderr).not.toContain('skipped');
    const bad = await run(['--module', 'fake-adapters', '--adapter', 'gamma'], both);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown adapter gamma; available: alpha-one, beta');
    expect(bad.stderr).toContain('skipped zep runs against your Zep: --zep URL');
  });

  it('writes the Markdown report and its JSON twin, keeping rows of adapters not run', async () => {
    const path = join(dir, 'new-dir', 'loss-reports.md');
    await run(['--module', 'fake-adapters', '--report', path], loader([subject('first', false)]));
    const r = await run(['--module', 'fake-adapters', '--report', path], loader([subject('second', false)]));
    expect(r.code).toBe(0);
    const md = readFileSync(path, 'utf8');
    expect(md).toContain('| first |');
    expect(md).toContain('| second |');
    expect(md).toContain(`Generated by \`ewp conformance --module fake-adapters --report ${path}\``);
    expect(md).toContain('the rows of first were kept from an earlier run');
    expect(JSON.parse(readFileSync(join(dir, 'new-dir', 'loss-reports.json'), 'utf8')).adapters.map((a: { adapter: string }) => a.adapter)).toEqual([
      'first',
      'second',
    ]);
  });

  it('exits 2 when no adapter is available, and on bad arguments', async () => {
    const none = await run([], loader([]));
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no adapter available (run against a store with --pg, --mem0 or --zep URL');
    const mem0 = await run(['--adapter', 'mem0'], loader([]));
    expect(mem0.code).toBe(2);
    expect(mem0.stderr).toContain('--mem0 URL');
    expect((await run(['--report', 'x.txt'], loader([]))).code).toBe(2);
    expect((await run(['--nope'], loader([]))).code).toBe(2);
  });

  it('in a checkout, discovers the offline Zep subject of @ewp/zep-testing through import()', async () => {
    const r = await run(['--adapter', 'zep']);
    expect(r.stderr).toMatch(/^zep: 52 fixtures; .*: pass$/m);
    expect(r.code).toBe(0);
  }, 120_000);
});
