import { decodeUtf8, type JsonProblem, type JsonReadPolicy, readJsonWith } from '@ewp/core';
import { type CanonicalizationCode, CanonicalizationError } from './canonicalization-error.js';
import { EBCJ1_MAX_DEPTH } from './ebcj1.js';

/** How {@link readJsonExact} treats what `JSON.parse` would silently change. */
export interface ReadJsonOptions {
  /**
   * `refuse` (default, EBCJ-1, docs/spec/receipts.md §1.3): any number token with `.`, `e` or `E` is refused, even `1.0`.
   * `number`: such tokens become JS numbers (for RFC 8785 / JCS input).
   * `keep`: such tokens become `@ewp/core`'s `JsonFloat` instances, which EBCJ-1 refuses where they are used
   * (for stored data that must be reported, not rejected wholesale, like an audit log).
   */
  floats?: 'refuse' | 'number' | 'keep';
  /** `refuse` (default, recommended by docs/spec/receipts.md §1.3) or `last` (the reference's behaviour: last value wins). */
  duplicateKeys?: 'refuse' | 'last';
}

/**
 * A trust-bearing JSON reader (docs/spec/receipts.md §1.3): integers stay exact (`number` when safe, else `bigint`),
 * `-0` reads as `0`, floats are classified lexically, escapes that leave a lone surrogate are refused,
 * duplicate keys are refused by default, and `__proto__` is an ordinary key.
 *
 * It is `@ewp/core`'s one JSON lexer under a stricter policy than `parseJson`'s: core follows Python's
 * reader (floats kept, last duplicate wins) for EWP views; this one feeds EBCJ-1, which must refuse
 * floats and ambiguity.
 * @throws {CanonicalizationError} code `JSON_SYNTAX`, `FLOAT`, `DUPLICATE_KEY`, `LONE_SURROGATE` or
 * `TOO_DEEP`, with the JSON path where the problem was found.
 * @throws {import('@ewp/core').InvalidUtf8Error} `INVALID_UTF8` (with the byte offset) when `input` is bytes that are not UTF-8.
 */
export function readJsonExact(input: string | Uint8Array, options: ReadJsonOptions = {}): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  return readJsonWith(text, policyOf(options.floats ?? 'refuse', options.duplicateKeys ?? 'refuse'), refuseAsCanonicalization);
}

const POLICIES = new Map<string, JsonReadPolicy>();

function policyOf(floats: 'refuse' | 'number' | 'keep', duplicateKeys: 'refuse' | 'last'): JsonReadPolicy {
  const key = `${floats}/${duplicateKeys}`;
  let policy = POLICIES.get(key);
  if (policy === undefined) {
    policy = Object.freeze({
      floats,
      nonFiniteLiterals: false,
      duplicateKeys,
      loneSurrogates: 'refuse',
      maxDepth: EBCJ1_MAX_DEPTH,
      // Integers of any length stay exact (bigint): EBCJ-1 has no limit of its own.
      maxIntegerDigits: Number.POSITIVE_INFINITY,
      paths: true,
    });
    POLICIES.set(key, policy);
  }
  return policy;
}

const CODES: Record<JsonProblem, CanonicalizationCode> = {
  syntax: 'JSON_SYNTAX',
  float: 'FLOAT',
  duplicate_key: 'DUPLICATE_KEY',
  lone_surrogate: 'LONE_SURROGATE',
  too_deep: 'TOO_DEEP',
};

function refuseAsCanonicalization(problem: JsonProblem, path: string, message: string): never {
  throw new CanonicalizationError(CODES[problem], path, problem === 'float' ? `floats are not supported by EBCJ-1 (${message})` : message);
}
