/**
 * The one strict JSON reader for input that crosses a boundary (a hook's stdin, a mapping or receipt
 * file, an MCP or REST message): the values `JSON.parse` gives, but text that `JSON.parse` would
 * silently change is refused instead: a key given twice (last would win), a lone surrogate escape, bytes
 * that are not UTF-8, nesting past a limit.
 */
import { EwpError } from '../errors.js';
import { type JsonProblem, type JsonReadPolicy, readJsonWith } from './json-reader.js';
import { decodeUtf8, isWellFormed } from './utf8.js';

/** Codes of {@link InvalidJsonError}: core's shared JSON codes. */
export type InvalidJsonCode = 'JSON_SYNTAX' | 'DUPLICATE_KEY' | 'LONE_SURROGATE';

/**
 * JSON text {@link parseJsonStrict} refused: `code` says why, `path` where (`$.tool_input.x` for a
 * key given twice), and the message gives the character offset. Nothing was read from it.
 */
export class InvalidJsonError extends EwpError<InvalidJsonCode> {
  static override readonly marker: symbol = Symbol.for('ewp.error.InvalidJsonError');
  declare readonly code: InvalidJsonCode;
  declare readonly path: string;
  constructor(code: InvalidJsonCode, path: string, message: string) {
    super(code, message, { path });
    this.name = 'InvalidJsonError';
  }
}

/** Options of {@link parseJsonStrict}. */
export interface StrictJsonOptions {
  /** Arrays and objects nested deeper than this are refused (`JSON_SYNTAX`). Default 512. */
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 512;
const POLICIES = new Map<number, JsonReadPolicy>();

function policyFor(maxDepth: number): JsonReadPolicy {
  let policy = POLICIES.get(maxDepth);
  if (policy === undefined) {
    policy = Object.freeze({
      floats: 'number',
      nonFiniteLiterals: false,
      duplicateKeys: 'refuse',
      loneSurrogates: 'refuse',
      maxDepth,
      maxIntegerDigits: Number.POSITIVE_INFINITY,
      paths: true,
    });
    POLICIES.set(maxDepth, policy);
  }
  return policy;
}

const CODES: Record<JsonProblem, InvalidJsonCode> = {
  syntax: 'JSON_SYNTAX',
  float: 'JSON_SYNTAX',
  too_deep: 'JSON_SYNTAX',
  duplicate_key: 'DUPLICATE_KEY',
  lone_surrogate: 'LONE_SURROGATE',
};

function refuse(problem: JsonProblem, path: string, message: string): never {
  throw new InvalidJsonError(CODES[problem], path, problem === 'duplicate_key' ? 'a key given twice in one object' : message);
}

/**
 * Parse JSON text (or UTF-8 bytes) as `JSON.parse` does, refusing what it would silently change: a
 * duplicate key, a lone surrogate (escaped, or in a string given as text), nesting deeper than
 * `maxDepth`. Numbers are JS numbers, as `JSON.parse` reads them.
 *
 * Fast: native `JSON.parse`, then one pass over the result that proves no key was given twice (see
 * {@link hasNoHiddenMember}); only text that fails that proof (or `JSON.parse`) is read again by the
 * project's exact lexer, which names the problem and its JSON path.
 * @throws {InvalidJsonError} `JSON_SYNTAX`, `DUPLICATE_KEY` or `LONE_SURROGATE`, with the JSON path.
 * @throws {import('./utf8.js').InvalidUtf8Error} `INVALID_UTF8` (with the byte offset) for bytes that are not UTF-8.
 */
export function parseJsonStrict(input: string | Uint8Array, options: StrictJsonOptions = {}): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The exact reader names the error (or, for nesting that overflowed the native parser, the depth).
    return readJsonWith(text, policyFor(maxDepth), refuse);
  }
  if (hasNoHiddenMember(text, value, maxDepth)) return value;
  // The exact reader refuses with the path; if it accepts (a `\u003a` escape made the count differ),
  // the native value stands, so both paths give the same numbers.
  readJsonWith(text, policyFor(maxDepth), refuse);
  return value;
}

/**
 * An escape that may decode to a lone surrogate (`\ud800`) or to a colon (`\u003a`, which the count
 * below cannot see); a backslash before it may make it literal text, which the exact reader then reads.
 */
const ESCAPE_TO_CHECK = /\\u(?:[dD][89a-fA-F]|003[aA])/;

/**
 * Whether `value` (what `JSON.parse` made of `text`) provably lost nothing and holds nothing to
 * refuse. Every colon of the text is either a member separator or a literal colon inside a string
 * token, and escapes never make a colon except `\u003a`. So, with no such escape, the colons of the
 * text equal the parsed members plus the colons in parsed strings, unless a duplicate key dropped a
 * member (and everything in its first value). False too when the text may hold a lone surrogate or
 * nest deeper than `maxDepth`, for the exact reader to decide.
 */
function hasNoHiddenMember(text: string, value: unknown, maxDepth: number): boolean {
  if (!isWellFormed(text) || ESCAPE_TO_CHECK.test(text) || bracketsOver(text, maxDepth)) return false;
  const textColons = colonsIn(text);
  // No colon, no member: nothing can have been dropped.
  return textColons === 0 || membersAndColons(value) === textColons;
}

/** Object members in `v`, plus the colons in its keys and strings (recursion bounded: `bracketsOver` was false). */
function membersAndColons(v: unknown): number {
  if (typeof v === 'string') return colonsIn(v);
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) n += membersAndColons(v[i]);
    return n;
  }
  for (const key of Object.keys(v)) n += 1 + colonsIn(key) + membersAndColons((v as Record<string, unknown>)[key]);
  return n;
}

/** Whether `t` holds more than `limit` opening brackets (in strings too): only then can it nest that deep. */
function bracketsOver(t: string, limit: number): boolean {
  if (t.length <= limit) return false;
  let count = 0;
  for (let p = t.indexOf('['); p !== -1; p = t.indexOf('[', p + 1)) if (++count > limit) return true;
  for (let p = t.indexOf('{'); p !== -1; p = t.indexOf('{', p + 1)) if (++count > limit) return true;
  return false;
}

function colonsIn(s: string): number {
  let n = 0;
  for (let p = s.indexOf(':'); p !== -1; p = s.indexOf(':', p + 1)) n++;
  return n;
}
