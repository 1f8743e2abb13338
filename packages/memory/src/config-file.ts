/**
 * The `[epistemic]` section of a settings file, and the same settings as command-line values: one
 * reader for both, so `ewp serve`, the memory verbs and `ewp inspect` (and any host) read them alike.
 * The file is a small TOML subset: `[epistemic]` and `[epistemic.confidence]` sections, `key = value`
 * lines with a number, `true`/`false` or a "string", and `#` comments; other sections are left to their
 * readers. Every key is checked here and every value by {@link resolveMemoryConfig}.
 */
import { type ConfidenceWeights, type MemoryConfigInput, resolveMemoryConfig } from './config.js';
import { badInput } from './errors.js';

/** The `[epistemic]` keys a file or flag may set (the names of {@link MemoryConfig}'s fields). */
export const EPISTEMIC_KEYS = [
  'gate_promotion',
  'min_independent_sources',
  'sim_threshold',
  'measure',
  'search_k',
  'eviction_evidence_bias',
  'recall_energy',
  'promotion_energy',
  'confirmed_confidence',
  'hot_k',
  'context_max_bytes',
  'checkout_max_rows',
  'checkout_max_bytes',
] as const;

/** The keys of `[epistemic.confidence]` (or `confidence.<key>` inside `[epistemic]`). */
export const CONFIDENCE_KEYS = ['observation_w', 'source_w', 'refute_w', 'age_penalty'] as const;

type Value = string | number | boolean;

function parseValue(raw: string, where: string): Value {
  const v = raw.trim();
  if (v === 'true') return true;
  if (v === 'false') return false;
  // A string, with an optional comment after it.
  const quoted = /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(v) ?? /^'([^']*)'\s*(?:#.*)?$/.exec(v);
  if (quoted) return v.startsWith('"') ? (JSON.parse(`"${quoted[1]}"`) as string) : quoted[1]!;
  if (/^[+-]?(?:\d[\d_]*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(v)) return Number(v.replace(/_/g, ''));
  throw badInput(where, `expected a number, true, false or a "string", got ${JSON.stringify(v)}`);
}

/** Sets `key` (under `[epistemic]`, or `confidence.x`) on `out`, refusing an unknown key by its full name. */
function setKey(out: MemoryConfigInput, section: 'epistemic' | 'epistemic.confidence', key: string, value: Value): void {
  const full = `${section}.${key}`;
  const [head, rest] = key.includes('.') ? [key.slice(0, key.indexOf('.')), key.slice(key.indexOf('.') + 1)] : [key, undefined];
  if (section === 'epistemic.confidence' || (head === 'confidence' && rest !== undefined)) {
    const k = section === 'epistemic.confidence' ? key : (rest as string);
    if (!(CONFIDENCE_KEYS as readonly string[]).includes(k)) throw badInput(full, `unknown key (known: ${CONFIDENCE_KEYS.join(', ')})`);
    out.confidence = { ...out.confidence, [k]: value } as Partial<ConfidenceWeights>;
    return;
  }
  if (!(EPISTEMIC_KEYS as readonly string[]).includes(key)) throw badInput(full, `unknown key (known: ${EPISTEMIC_KEYS.join(', ')}, confidence.*)`);
  (out as Record<string, unknown>)[key] = value;
}

/**
 * The `[epistemic]` settings of a settings file's text, every value checked against the defaults.
 * @param file shown in refusals (`<file>:<line>`).
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the key (`epistemic.sim_threshold`,
 * `config.sim_threshold` for a value out of range) or the line that cannot be read.
 */
export function parseEpistemicSettings(text: string, file = 'settings'): MemoryConfigInput {
  const out: MemoryConfigInput = {};
  let section: string | undefined;
  const seen = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const content = line.replace(/^\s+/, '');
    if (content === '' || content.startsWith('#')) return;
    const header = /^\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(?:#.*)?$/.exec(content);
    if (header) {
      section = header[1];
      return;
    }
    if (section !== 'epistemic' && section !== 'epistemic.confidence') return;
    const kv = /^([A-Za-z0-9_.]+)\s*=\s*(.*?)\s*$/.exec(content);
    if (!kv) throw badInput(where, 'expected key = value');
    // A value's trailing comment, outside a string.
    const raw = kv[2]!.startsWith('"') || kv[2]!.startsWith("'") ? kv[2]! : kv[2]!.replace(/\s*#.*$/, '');
    const full = `${section}.${kv[1]}`;
    if (seen.has(full)) throw badInput(full, `set twice (${where})`);
    seen.add(full);
    setKey(out, section, kv[1]!, parseValue(raw, full));
  });
  resolveMemoryConfig(out);
  return out;
}

/** Command-line spellings of the settings: `--sim-threshold` for `sim_threshold`, `--confidence-source-w` for `confidence.source_w`. */
export function epistemicFlagName(key: string): string {
  return key.replace(/[._]/g, '-');
}

/**
 * Settings given as command-line strings, by key (`sim_threshold`, `confidence.source_w`), over
 * `base` (a file's settings): flags override the file. Numbers, `true`/`false` (also `on`/`off`,
 * `1`/`0`) and measure names are read from the strings; every value is checked.
 * @throws {MemoryError} `EWP_REFUSE_MEMORY_INPUT` naming the flag's key.
 */
export function applyEpistemicFlags(base: MemoryConfigInput, flags: Readonly<Record<string, string | undefined>>): MemoryConfigInput {
  const out: MemoryConfigInput = { ...base, ...(base.confidence ? { confidence: { ...base.confidence } } : {}) };
  for (const [key, text] of Object.entries(flags)) {
    if (text === undefined) continue;
    const t = text.trim();
    const value: Value =
      key === 'measure'
        ? t
        : key === 'gate_promotion'
          ? /^(true|on|1)$/i.test(t)
            ? true
            : /^(false|off|0)$/i.test(t)
              ? false
              : t
          : t !== '' && Number.isFinite(Number(t))
            ? Number(t)
            : t;
    setKey(out, 'epistemic', key, value);
  }
  resolveMemoryConfig(out);
  return out;
}
