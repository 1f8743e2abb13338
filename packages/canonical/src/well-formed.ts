// Lone surrogates only: with the `u` flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

type WellFormedString = string & { isWellFormed?: () => boolean };

/**
 * No lone surrogate in the string (it has a UTF-8 form). `String.prototype.isWellFormed` (Node 20+,
 * ES2024), with a regex fallback for older engines.
 */
export const isWellFormed: (s: string) => boolean =
  typeof (String.prototype as WellFormedString).isWellFormed === 'function' ? (s) => (s as WellFormedString).isWellFormed!() : (s) => !LONE_SURROGATE.test(s);
