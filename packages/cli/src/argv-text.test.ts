import { describe, expect, it } from 'vitest';
import { undecodableArgument } from './argv-text.js';

describe('undecodableArgument', () => {
  it('passes clean text, names the first argument showing a decoding loss or a lone surrogate', () => {
    expect(undecodableArgument(['store', 'café ☕ 𝄞', '--class', 'inference'])).toBeUndefined();
    expect(undecodableArgument(['disk \uFFFD full', '--class', 'x'])).toBe(
      'INVALID_UTF8: argument 1 (a positional argument) is not UTF-8 text: it holds U+FFFD, the mark of bytes that are not UTF-8; nothing was done',
    );
    expect(undecodableArgument(['x', '--source', 'tool\uFFFD'])).toContain('argument 3 (after --source)');
    expect(undecodableArgument(['x', '--project=\uD800'])).toBe(
      'INVALID_UTF8: argument 2 (the value of --project) is not UTF-8 text: it holds a lone UTF-16 surrogate; nothing was done',
    );
    expect(undecodableArgument(['\uDC00x'])).toContain('lone UTF-16 surrogate');
  });
});
