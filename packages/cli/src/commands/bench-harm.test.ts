import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMITTED_SCENARIOS } from '@ewp/harm-bench';
import { describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { benchCommand } from './bench-harm.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-bench-harm-'));
const run = (args: string[]) => runCaptured((io) => benchCommand(args, io), { cwd: dir });

// Two scenarios of each family from the committed set: small enough to run every arm here.
const lines = readFileSync(COMMITTED_SCENARIOS, 'utf8').trimEnd().split('\n');
const few = lines.filter((_line, i) => i % 14 === 0);
writeFileSync(join(dir, 'few.jsonl'), `${few.join('\n')}\n`);

describe('ewp bench harm', () => {
  it('prints the table, a progress line on stderr, and writes the JSON report and the chart', async () => {
    const r = await run(['harm', '--scenarios', 'few.jsonl', '--json', 'out.json', '--svg', 'out.svg']);
    expect(r.stderr).toMatch(/ewp bench harm: \d+\/24 scenarios/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^harm bench: 24 scenarios in 12 families/);
    for (const label of ['(a) plain memory', '(b) Mem0 score', '(b) Zep validity', '(c) evidence layer confidence', '(d) EWP gate', '(e) gate + re-checks'])
      expect(r.stdout).toContain(label);
    const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    expect(report.scenarios).toBe(24);
    expect(report.decisions).toHaveLength(24);
    for (const arm of report.arms) expect(arm.total.acted + arm.total.held + arm.total.confirmed).toBe(24);
    expect(readFileSync(join(dir, 'out.svg'), 'utf8')).toMatch(/^<svg [^>]+>[\s\S]*<\/svg>\n$/);
  }, 120_000);

  it('runs a subset of arms', async () => {
    const r = await run(['harm', '--scenarios', 'few.jsonl', '--arms', 'plain,gate']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(a) plain memory');
    expect(r.stdout).not.toContain('Mem0');
  });

  it('refuses a malformed scenario naming the line and the field, and writes nothing', async () => {
    const bad = JSON.parse(few[1]!);
    bad.act.risk = 'severe';
    writeFileSync(join(dir, 'bad.jsonl'), `${few[0]}\n\n${JSON.stringify(bad)}\n`);
    const r = await run(['harm', '--scenarios', 'bad.jsonl', '--json', 'bad.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused \(SCENARIO_INVALID\) at line 3, \$\.act\.risk: /);
    expect(r.stdout).toBe('');
    expect(() => readFileSync(join(dir, 'bad.json'))).toThrow();
  });

  it('refuses bad arguments with exit 2', async () => {
    expect((await run(['harm', '--arms', 'plain,oracle'])).code).toBe(2);
    expect((await run(['speed'])).code).toBe(2);
    expect((await run(['harm', '--scenarios', 'missing.jsonl'])).code).toBe(2);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: ewp bench harm/);
  });
});
