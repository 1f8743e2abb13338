/**
 * What two texts must share to state the same fact, whatever their wording: the tokens of a text
 * (after {@link cleanText}), its anchors (numbers with their units, times, periods, identifiers,
 * names) and its negations. {@link differentFacts} is the hard rule the fact-guarded measures apply
 * on top of a similarity: "at 06:00" and "at 07:00", "db-07" and "db-08", "failed" and "did not fail"
 * are two facts however similar the rest of the sentence is.
 */
import {
  NEGATIONS,
  NEGATION_SCOPE,
  NOT_NEGATING_NEXT,
  NUMBER_WORDS,
  OPPOSITES,
  ORDINAL_WORDS,
  PERIOD_UNITS,
  PERIOD_WORDS,
  POLAR_FUNCTION_WORDS,
  SCOPE_BREAKS,
  STOPWORDS,
  UNITS,
} from './fact-lexicon.js';

/** Default-ignorable code points (zero-width characters, soft hyphen, variation selectors, bidi controls, BOM). */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * The text a measure compares: invisible characters removed (before and after NFKC, so a joiner cannot
 * split a word or survive a compatibility mapping), then NFKC. Stored text is never changed.
 */
export function cleanText(text: string): string {
  return text.replace(INVISIBLE, '').normalize('NFKC').replace(INVISIBLE, '');
}

/** One token of a cleaned text. */
export interface FactToken {
  /** Lowercased. */
  word: string;
  /** Capitalized where it stands (a name or a sentence start). */
  capital: boolean;
  /** First token of a sentence. */
  initial: boolean;
}

const TOKEN = /[\p{L}\p{N}]+(?:['._:/-][\p{L}\p{N}]+)*|[%$€£°]/gu;

/** Tokens of `text` (cleaned here), with contractions opened ("doesn't" → "does", "not") and possessives dropped. */
export function factTokens(text: string): FactToken[] {
  const s = cleanText(text)
    .replace(/\p{Pd}/gu, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'");
  const out: FactToken[] = [];
  let last = 0;
  for (const m of s.matchAll(TOKEN)) {
    const raw = m[0];
    const initial = out.length === 0 || /[.!?;]/.test(s.slice(last, m.index));
    last = m.index + raw.length;
    const capital = /^\p{Lu}/u.test(raw);
    let word = raw.toLowerCase();
    if (word.endsWith("'s")) word = word.slice(0, -2);
    if (word.endsWith("n't")) {
      const base = word.slice(0, -3);
      out.push({ word: base === 'ca' ? 'can' : base === 'wo' ? 'will' : base === 'sha' ? 'shall' : base, capital, initial });
      out.push({ word: 'not', capital: false, initial: false });
      continue;
    }
    // "5gb", "50mg", "6am": a number glued to its unit is two tokens.
    const glued = /^(\d+(?:[.,]\d+)?)([a-z%°]+)$/u.exec(word);
    if (glued && (UNITS[glued[2]!] !== undefined || glued[2] === 'am' || glued[2] === 'pm' || /^(st|nd|rd|th)$/.test(glued[2]!))) {
      if (/^(st|nd|rd|th)$/.test(glued[2]!)) {
        out.push({ word, capital, initial });
        continue;
      }
      out.push({ word: glued[1]!, capital: false, initial });
      out.push({ word: glued[2]!, capital: false, initial: false });
      continue;
    }
    out.push({ word, capital, initial });
  }
  return out;
}

/** A light stem, so "fails", "failed" and "fail" (or "backups" and "backup") compare equal. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:ss|sh|ch|x)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  // "stopped" → "stopp" → "stop", "planning" → "plann" → "plan"
  if (w.length > 3 && w[w.length - 1] === w[w.length - 2] && !/[aeiousl]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  return w;
}

function numberValue(word: string): string | undefined {
  if (/^\d+(?:[.,]\d+)?$/.test(word)) return String(Number(word.replace(',', '.')));
  const n = NUMBER_WORDS[word];
  return n === undefined ? undefined : String(n);
}

/** The facts of a text a same-fact paraphrase keeps. */
export interface TextFacts {
  tokens: FactToken[];
  /** Stems of the content words (no stopwords, no negations, no numbers). */
  content: string[];
  /** The content words as written (lowercased), parallel to `content`: what word vectors are looked up by. */
  words: string[];
  /** Anchors: each a set of keys, any of which the other text may match ("one hour" = "an hour"). */
  anchors: string[][];
  /** Every key of every anchor, and every stem (a name matches the same word anywhere in the other text). */
  keys: Set<string>;
  /** Stems that follow a negation cue (what is negated), empty when the text has none. */
  negated: string[];
  /** Whether the text has a negation cue. */
  negation: boolean;
  /** Stems of words that are not content but have an opposite ("before"/"after", "first"/"last"). */
  polar: string[];
}

/** Reads the facts of `text`. */
export function textFacts(text: string): TextFacts {
  const tokens = factTokens(text);
  const content: string[] = [];
  const words: string[] = [];
  const anchors: string[][] = [];
  const keys = new Set<string>();
  const negated: string[] = [];
  const polar: string[] = [];
  let negation = false;
  let consumed = -1;
  for (let i = 0; i < tokens.length; i += 1) {
    if (i <= consumed) continue;
    const t = tokens[i]!;
    const w = t.word;
    const next = tokens[i + 1]?.word;
    if (NEGATIONS.has(w) && !(next !== undefined && NOT_NEGATING_NEXT.has(next))) {
      negation = true;
      // What is negated: the next content words, up to a clause break.
      let scope = NEGATION_SCOPE;
      for (let j = i + 1; j < tokens.length && scope > 0; j += 1) {
        const n = tokens[j]!.word;
        if (SCOPE_BREAKS.has(n) || (j > i + 1 && tokens[j]!.initial)) break;
        if (!STOPWORDS.has(n) && !NEGATIONS.has(n) && numberValue(n) === undefined) {
          negated.push(stem(n));
          scope -= 1;
          if (tokens[j + 1]?.word === 'of') scope += 1;
        }
      }
      continue;
    }
    // Times: 06:00, 6:00 pm, 6 am, noon, midnight.
    const time = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(w);
    if (time || ((next === 'am' || next === 'pm') && /^\d{1,2}$/.test(w))) {
      let h = Number(time ? time[1] : w);
      const m = time ? time[2]! : '00';
      if (next === 'pm' && h < 12) h += 12;
      if (next === 'am' && h === 12) h = 0;
      if (next === 'am' || next === 'pm') consumed = i + 1;
      // A whole hour is also its bare number: "at 06:00" = "at six".
      anchors.push(m === '00' ? [`t${h}:${m}`, `n${h}`] : [`t${h}:${m}`]);
      continue;
    }
    if (w === 'noon' || w === 'midday' || w === 'midnight') {
      anchors.push([w === 'midnight' ? 't0:00' : 't12:00']);
      continue;
    }
    if (POLAR_FUNCTION_WORDS.has(w)) polar.push(stem(w));
    if (/^\d+(?:st|nd|rd|th)$/.test(w) || ORDINAL_WORDS[w] !== undefined) {
      // "second" after a number is the unit (handled there); alone it is an ordinal.
      anchors.push([`o${ORDINAL_WORDS[w] ?? Number.parseInt(w, 10)}`]);
      continue;
    }
    // A currency sign before its number: "$12" = "12 dollars".
    const sign = UNITS[w];
    if ((w === '$' || w === '€' || w === '£') && next !== undefined && numberValue(next) !== undefined) {
      anchors.push([`n${numberValue(next)}${sign}`]);
      consumed = i + 1;
      continue;
    }
    const value = numberValue(w);
    if (value !== undefined && !(NUMBER_WORDS[w] !== undefined && value === '1' && w !== 'one')) {
      const unit = next !== undefined ? UNITS[next] : undefined;
      if (unit !== undefined) {
        consumed = i + 1;
        const key = [`n${value}${unit}`];
        // "one hour" = "an hour" = "hourly"
        if (value === '1' && PERIOD_UNITS.has(unit)) key.push(`p${unit}`);
        anchors.push(key);
      } else {
        anchors.push([`n${value}`]);
      }
      continue;
    }
    // A period without a number: "daily", "a day", "per week", "every month".
    const period = PERIOD_WORDS[w] ?? (PERIOD_UNITS.has(UNITS[w] ?? '') && /^[a-z]{3,}$/.test(w) ? UNITS[w] : undefined);
    if (period !== undefined) {
      anchors.push([`p${period}`]);
      continue;
    }
    // "May" inside a sentence is the month, not the verb.
    if (STOPWORDS.has(w) && !(w === 'may' && t.capital && !t.initial)) continue;
    if (w === '$' || w === '€' || w === '£' || w === '%' || w === '°') continue;
    const s = stem(w);
    content.push(s);
    words.push(w);
    keys.add(s);
    // Identifiers (db-07, parse_config, v1.2, eu-west-1) and names (capitalized) are anchors matched by spelling.
    const identifier = /\d/.test(w) || /[._/]/.test(w) || /-/.test(w);
    if (identifier || t.capital) anchors.push([s]);
  }
  for (const a of anchors) for (const k of a) keys.add(k);
  return { tokens, content, words, anchors, keys, negated, negation, polar };
}

function unmatchedAnchor(a: TextFacts, b: TextFacts): boolean {
  return a.anchors.some((keys) => !keys.some((k) => b.keys.has(k)));
}

const OPPOSITE_OF: ReadonlyMap<string, readonly string[]> = (() => {
  const m = new Map<string, string[]>();
  for (const [x, y] of OPPOSITES) {
    const [p, q] = [stem(x), stem(y)];
    m.set(p, [...(m.get(p) ?? []), q]);
    m.set(q, [...(m.get(q) ?? []), p]);
  }
  return m;
})();

/** What a text asserts: its content stems not negated, and for a negated word with an opposite, the opposite ("not open" asserts "closed"). */
function asserted(f: TextFacts): Set<string> {
  const negated = new Set(f.negated);
  const out = new Set<string>();
  for (const w of f.content.concat(f.anchors.flat(), f.polar)) {
    if (!negated.has(w)) out.add(w);
    else for (const o of OPPOSITE_OF.get(w) ?? []) out.add(o);
  }
  return out;
}

function opposed(sa: Set<string>, sb: Set<string>): boolean {
  for (const [p, qs] of OPPOSITE_OF) {
    if (!sa.has(p) || sb.has(p)) continue;
    for (const q of qs) if (sb.has(q) && !sa.has(q)) return true;
  }
  return false;
}

/** A word one text negates and the other asserts ("crashes" and "does not crash"). */
function negatedAsserted(neg: TextFacts, plain: Set<string>): boolean {
  return neg.negated.some((w) => plain.has(w));
}

/**
 * Whether `a` and `b` state different facts however alike their wording: each names a number, time,
 * period, identifier or name the other lacks (a swap, not a detail left out); one negates a word the
 * other asserts; or one asserts a word whose opposite the other asserts (up/down, passes/fails; a
 * negated word asserts its opposite, so "closed" and "does not open" agree).
 */
export function differentFacts(a: TextFacts, b: TextFacts): boolean {
  if (unmatchedAnchor(a, b) && unmatchedAnchor(b, a)) return true;
  const sa = asserted(a);
  const sb = asserted(b);
  if (negatedAsserted(a, sb) || negatedAsserted(b, sa)) return true;
  return opposed(sa, sb) || opposed(sb, sa);
}

/**
 * The words `a` and `b` differ in when they are the same sentence with a word or two replaced: the
 * content words each has that the other lacks, when as many on each side (one or two) and the shared
 * words (at least two) stand in the same order; undefined otherwise (a rewording, a reordering, or the same words).
 */
export function substitution(a: TextFacts, b: TextFacts): { a: string[]; b: string[] } | undefined {
  const inB = new Set(b.content);
  const inA = new Set(a.content);
  const ua = a.words.filter((_, i) => !inB.has(a.content[i]!));
  const ub = b.words.filter((_, i) => !inA.has(b.content[i]!));
  // One word for one, or two for two: a rewording rarely replaces words one to one in the same order.
  if (ua.length === 0 || ua.length !== ub.length || ua.length > 2) return undefined;
  const sharedA = a.content.filter((w) => inB.has(w));
  const sharedB = b.content.filter((w) => inA.has(w));
  if (sharedA.length < 2 || sharedA.join(' ') !== sharedB.join(' ')) return undefined;
  return { a: ua, b: ub };
}
