import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    expect(r.stderr).toContain('skipped @ewp/mem0/conformance (not installed');
    expect(r.stderr).toContain('skipped @ewp/zep/conformance (not installed');
    expect(r.stdout).toContain('| good | 52 | 52 | 52 | 0 (0) | 0 | 0 | — | 0 | 0 | 0 | pass |');
  });

  it('fails (exit 1) on an unlisted loss and prints it; --json gives the counts', async () => {
    const r = await run(['--module', 'fake-adapters', '--json'], loader([subject('bad', true)]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unexpected ADAPTER_MAP_LOSS \S+ assertions\[\*\]\.asserted_by/);
    const json = JSON.parse(r.stdout);
    expect(json.adapters[0].losses.ADAPTER_MAP_LOSS['assertions[*].asserted_by']).toBeGreaterThan(0);
    expect(json.adapters[0].ok).toBe(false);
  });

  it('filters with --adapter and refuses an unknown one (exit 2)', async () => {
    const both = loader([subject('alpha-one', false), subject('beta', true)]);
    const r = await run(['--module', 'fake-adapters', '--adapter', 'alpha'], both);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('| beta |');
    const bad = await run(['--module', 'fake-adapters', '--adapter', 'gamma'], both);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown adapter gamma; available: alpha-one, beta');
  });

  it('writes the Markdown report and its JSON twin, keeping rows of adapters not run', async () => {
    const path = join(dir, 'new-dir', 'loss-reports.md');
    await run(['--module', 'fake-adapters', '--report', path], loader([subject('first', false)]));
    const r = await run(['--module', 'fake-adapters', '--report', path], loader([subject('second', false)]));
    expect(r.code).toBe(0);
    const md = readFileSync(path, 'utf8');
    expect(md).toContain('| first |');
    expect(md).toContain('| second |');
    expect(JSON.parse(readFileSync(join(dir, 'new-dir', 'loss-reports.json'), 'utf8')).adapters.map((a: { adapter: string }) => a.adapter)).toEqual(['first', 'second']);
  });

  it('exits 2 when no adapter is available, and on bad arguments', async () => {
    expect((await run([], loader([]))).code).toBe(2);
    expect((await run(['--report', 'x.txt'], loader([]))).code).toBe(2);
    expect((await run(['--nope'], loader([]))).code).toBe(2);
  });

  it('discovers the real adapters through import() when installed, and skips them otherwise', async () => {
    const r = await run(['--adapter', 'zep']);
    if (r.stderr.includes('skipped @ewp/zep/conformance (not installed')) {
      expect(r.code).toBe(2);
    } else {
      expect(r.stderr).toContain('zep: 52 fixtures');
      expect(r.code).toBe(0);
    }
  }, 120_000);
});
