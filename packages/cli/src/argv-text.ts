/**
 * The byte rule for command-line arguments. Node decodes argv as UTF-8 and replaces bytes that are
 * not UTF-8 with U+FFFD before any verb sees them (on Windows, argv is UTF-16 and may hold a lone
 * surrogate), so the bytes themselves cannot be refused the way a file's are (core's `decodeUtf8`).
 * What can be done is to refuse the argument that shows the damage, before anything is stored from
 * it: an argument holding U+FFFD or a lone surrogate is refused as `INVALID_UTF8`. A replacement
 * character typed on purpose is refused too: it cannot be told from a decoding loss.
 */
import { isWellFormed } from '@ewp/core';

const REPLACEMENT = '\uFFFD';

/**
 * The refusal for the first argument that is not clean UTF-8 text (`INVALID_UTF8: argument 3
 * (after --source) ...`), or undefined when every argument is. `args` are a verb's arguments, after the verb.
 */
export function undecodableArgument(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    const replaced = arg.includes(REPLACEMENT);
    if (!replaced && isWellFormed(arg)) continue;
    const option = /^(--?[^=\s]+)=/.exec(arg)?.[1];
    const previous = args[i - 1];
    const where = option !== undefined ? `the value of ${option}` : previous?.startsWith('-') ? `after ${previous}` : 'a positional argument';
    const damage = replaced ? 'it holds U+FFFD, the mark of bytes that are not UTF-8' : 'it holds a lone UTF-16 surrogate';
    return `INVALID_UTF8: argument ${i + 1} (${where}) is not UTF-8 text: ${damage}; nothing was done`;
  }
  return undefined;
}
