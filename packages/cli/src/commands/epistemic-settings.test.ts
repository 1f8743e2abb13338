/** The [epistemic] settings from --config and flags, on the memory verbs, `ewp serve` and `ewp inspect`. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCaptured } from '../testing/captured-io.js';
import { inspectCommand } from './inspect.js';
import { memoryStoreCommand } from './memory-store.js';
import { serveCommand } from './serve.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-cli-epistemic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const trigramFile = join(dir, 'trigram.toml');
writeFileSync(
  trigramFile,
  '# the lexical measure\n[other]\nx = 1\n[epistemic]\nmeasure = "trigram-cosine"  # near copies only\nsim_threshold = 0.85\n[epistemic.confidence]\nsource_w = 20\n',
);

/** Whether a same-source paraphrase of an earlier support is judged an echo under `settings`. */
async function paraphraseEcho(...settings: string[]): Promise<boolean> {
  const db = ['--db', join(dir, `m-${++n}.sqlite`)];
  const run = (...args: string[]) => runCaptured((io) => memoryStoreCommand([...args, ...db, ...settings, '--json'], io), { cwd: dir });
  const first = await run('So the 05:50 maintenance window is safe', '--class', 'inference');
  expect(first.stderr).toBe('');
  const claim = JSON.parse(first.stdout);
  expect((await run('The nightly backup job starts at 06:00', '--class', 'observation', '--source', 'scheduler', '--supports', claim.hash)).code).toBe(0);
  const again = await run('At 06:00 each night the backup job kicks off', '--class', 'observation', '--source', 'scheduler', '--supports', claim.hash);
  expect(again.stderr).toBe('');
  expect(again.code).toBe(0);
  return JSON.parse(again.stdout).links[0].echo as boolean;
}

describe('[epistemic] settings on the command line', () => {
  it('the default measure calls a paraphrase an echo; --config picks trigram (no echo); a flag overrides the file', async () => {
    expect(await paraphraseEcho()).toBe(true);
    expect(await paraphraseEcho('--config', trigramFile)).toBe(false);
    expect(await paraphraseEcho('--config', trigramFile, '--measure', 'word-vectors', '--sim-threshold', '0.6')).toBe(true);
  });

  it('the memory verbs refuse a bad key, value or file naming it, exit 2, nothing written', async () => {
    const bad = join(dir, 'bad.toml');
    writeFileSync(bad, '[epistemic]\nsim_treshold = 0.7\n');
    const db = join(dir, 'never.sqlite');
    const cases: [string[], RegExp][] = [
      [['--config', bad], /EWP_REFUSE_MEMORY_INPUT: epistemic\.sim_treshold: unknown key/],
      [['--sim-threshold', '2'], /EWP_REFUSE_MEMORY_INPUT: config\.sim_threshold: must be between 0 and 1/],
      [['--measure', 'levenshtein'], /config\.measure: must be one of word-vectors, trigram-cosine, trigram-facts/],
      [['--gate-promotion', 'maybe'], /config\.gate_promotion/],
      [['--confidence-source-w', 'x'], /config\.confidence\.source_w/],
      [['--config', join(dir, 'missing.toml')], /--config: cannot read .*missing\.toml: ENOENT/],
    ];
    for (const [args, message] of cases) {
      const r = await runCaptured((io) => memoryStoreCommand(['A fact', '--class', 'observation', '--db', db, ...args], io), { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('ewp serve and ewp inspect refuse bad settings the same way, before opening anything', async () => {
    for (const cmd of [serveCommand, inspectCommand]) {
      const r = await runCaptured((io) => cmd(['--db', join(dir, 'none.sqlite'), '--sim-threshold', '1.5'], io), { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/EWP_REFUSE_MEMORY_INPUT: config\.sim_threshold: must be between 0 and 1/);
    }
  });
});
