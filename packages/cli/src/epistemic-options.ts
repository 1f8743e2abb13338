/**
 * The `[epistemic]` settings on the command line, for every verb that opens a memory layer (`ewp serve`,
 * the memory verbs, `ewp inspect`): `--config FILE` (its `[epistemic]` section) and one flag per
 * setting, flags over the file. Reading and checking them is @ewp/memory's (config-file.ts); this
 * only names the flags.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { applyEpistemicFlags, type MemoryConfigInput, parseEpistemicSettings } from '@ewp/memory';
import { UsageError } from './errors.js';

/** The settings a flag may set, by flag name, with the key each sets. */
const FLAG_KEYS = {
  'gate-promotion': 'gate_promotion',
  'min-independent-sources': 'min_independent_sources',
  'sim-threshold': 'sim_threshold',
  measure: 'measure',
  'eviction-evidence-bias': 'eviction_evidence_bias',
  'confidence-observation-w': 'confidence.observation_w',
  'confidence-source-w': 'confidence.source_w',
  'confidence-refute-w': 'confidence.refute_w',
  'confidence-age-penalty': 'confidence.age_penalty',
} as const;

/** `parseArgs` options of the settings. */
export const EPISTEMIC_OPTIONS = {
  config: { type: 'string' },
  'gate-promotion': { type: 'string' },
  'min-independent-sources': { type: 'string' },
  'sim-threshold': { type: 'string' },
  measure: { type: 'string' },
  'eviction-evidence-bias': { type: 'string' },
  'confidence-observation-w': { type: 'string' },
  'confidence-source-w': { type: 'string' },
  'confidence-refute-w': { type: 'string' },
  'confidence-age-penalty': { type: 'string' },
} as const;

/** What the options parse to. */
export type EpistemicValues = { readonly [K in keyof typeof EPISTEMIC_OPTIONS]?: string | undefined };

/** The help lines of the settings. */
export const EPISTEMIC_HELP = `Evidence-layer settings: --config FILE reads its [epistemic] section; these flags override it:
  --gate-promotion on|off  --min-independent-sources N  --sim-threshold 0..1
  --measure word-vectors|trigram-cosine|trigram-facts  --eviction-evidence-bias X
  --confidence-observation-w N  --confidence-source-w N  --confidence-refute-w N  --confidence-age-penalty N`;

/**
 * The settings the values name: the file's `[epistemic]` section, then the flags over it.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the key or the file's line; an unreadable file as a {@link UsageError} naming it.
 */
export function epistemicSettings(values: EpistemicValues, cwd: string): MemoryConfigInput {
  let base: MemoryConfigInput = {};
  if (values.config !== undefined) {
    const file = isAbsolute(values.config) ? values.config : resolve(cwd, values.config);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--config: cannot read ${values.config}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    base = parseEpistemicSettings(text, values.config);
  }
  const flags: Record<string, string | undefined> = {};
  for (const [flag, key] of Object.entries(FLAG_KEYS)) flags[key] = values[flag as keyof typeof FLAG_KEYS];
  return applyEpistemicFlags(base, flags);
}
