/**
 * One error root: every error class of every package extends `EwpError` from @ewp/core (code, JSON
 * path, cause, a `Symbol.for` marker for `isInstance`). This scans the sources for classes that
 * extend a built-in error directly, and for built-in errors constructed or thrown in production
 * code. The few classes allowed below are not errors a caller ever sees; the list must match
 * exactly, so a new root fails and a stale entry fails too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositoryFiles, repositoryRoot } from './repository-files.js';

const ALLOWED: Record<string, string> = {
  'packages/core/src/errors.ts EwpError': 'the root itself',
  // Local test servers: an HttpError becomes the HTTP status of a reply, never a thrown error of a client.
  'packages/mem0-testing/src/mem0-rest-server.ts HttpError': 'internal to the local Mem0 REST server',
  'packages/zep-testing/src/zep-graph-server.ts HttpError': 'internal to the local Zep API server',
  // The oracle is a second evaluator written from the protocol alone: it must not import @ewp/core.
  'conformance/src/oracle/decode-view.ts Refused': 'oracle, independent of @ewp/core',
  'conformance/src/oracle/json-text.ts OracleJsonError': 'oracle, independent of @ewp/core',
  'conformance/src/oracle/evaluate-view.ts RecordTimeOutOfRange': 'oracle, independent of @ewp/core',
};

it('every error class extends EwpError (one root)', () => {
  const roots: string[] = [];
  // Sources of every package and of conformance; tests are not where errors are thrown to callers.
  const sources = repositoryFiles().filter((f) => /^(packages\/[^/]+|conformance)\//.test(f) && /\.(ts|tsx|mts)$/.test(f) && !/\.test\.tsx?$/.test(f));
  for (const file of sources) {
    const text = readFileSync(join(repositoryRoot, file), 'utf8');
    for (const match of text.matchAll(/class\s+(\w+)(?:<[^{]*?>)?\s+extends\s+(?:Error|TypeError|RangeError|SyntaxError)\b/g)) {
      roots.push(`${file} ${match[1]}`);
    }
  }
  expect(roots.sort()).toEqual(Object.keys(ALLOWED).sort());
});

/**
 * Production code of the packages: `packages/<name>/src`, without tests, test helpers, the
 * `/testing` entries and `*-testing` packages (local test servers) and benchmarks.
 */
function isProductionSource(file: string): boolean {
  return (
    /^packages\/[^/]+\/src\/.*\.(ts|tsx|mts|cts|js|mjs)$/.test(file) &&
    !/^packages\/[^/]+-testing\//.test(file) &&
    !/\.test\.[cm]?[jt]sx?$/.test(file) &&
    !/\/(test|testing|bench)\//.test(file)
  );
}

/** `new TypeError(`, `throw Error(`, `RangeError(`, …: a built-in error made directly, not through an EwpError subclass. */
const BUILT_IN_ERROR = /(?<![\w.$])(?:new\s+)?(?:Aggregate|Eval|Range|Reference|Syntax|Type|URI)?Error\s*\(/g;

it('production code throws no bare built-in error (Error, TypeError, RangeError, SyntaxError, …)', () => {
  const sites: string[] = [];
  for (const file of repositoryFiles().filter(isProductionSource)) {
    const lines = readFileSync(join(repositoryRoot, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const match of line.matchAll(BUILT_IN_ERROR)) sites.push(`${file}:${i + 1} ${match[0]}`);
    });
  }
  // Each site should throw InvalidArgumentError (a bad argument, naming it) or another EwpError subclass with a code.
  expect(sites).toEqual([]);
});

it('the production-code scan sees what it must and skips what it may', () => {
  const hits = (text: string) => [...text.matchAll(BUILT_IN_ERROR)].map((m) => m[0]);
  expect(hits("throw new TypeError('x'); new RangeError(1); new Error ('y'); throw Error('z'); new SyntaxError(s)")).toEqual([
    'new TypeError(',
    'new RangeError(',
    'new Error (',
    'Error(',
    'new SyntaxError(',
  ]);
  expect(hits("throw new InvalidArgumentError('limit', 'x'); new EwpError('USAGE', 'y'); error.isError(e); x.Error(1)")).toEqual([]);
  expect(isProductionSource('packages/core/src/errors.ts')).toBe(true);
  expect(isProductionSource('packages/inspect/src/serve-inspector.tsx')).toBe(true);
  for (const skipped of [
    'packages/core/src/errors.test.ts',
    'packages/core/test/helpers.ts',
    'packages/mem0-testing/src/mem0-rest-server.ts',
    'packages/cli/bench/ingest.bench.ts',
    'packages/inspect/web/src/api.ts',
    'conformance/src/oracle/decode-view.ts',
  ]) {
    expect(isProductionSource(skipped), skipped).toBe(false);
  }
});
