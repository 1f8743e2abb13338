/**
 * One error root: every error class of every package extends `EwpError` from @ewp/core (code, JSON
 * path, cause, a `Symbol.for` marker for `isInstance`). This scans the sources for classes that
 * extend a built-in error directly. The few allowed below are not errors a caller ever sees; the
 * list must match exactly, so a new root fails and a stale entry fails too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositoryFiles, repositoryRoot } from './repository-files.js';

const ALLOWED: Record<string, string> = {
  'packages/core/src/errors.ts EwpError': 'the root itself',
  // Local test servers: an HttpError becomes the HTTP status of a reply, never a thrown error of a client.
  'packages/mem0/src/testing/mem0-rest-server.ts HttpError': 'internal to the local Mem0 REST server',
  'packages/zep/src/testing/zep-graph-server.ts HttpError': 'internal to the local Zep API server',
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
    for (const match of text.matchAll(/class\s+(\w+)\s+extends\s+(?:Error|TypeError|RangeError|SyntaxError)\b/g)) {
      roots.push(`${file} ${match[1]}`);
    }
  }
  expect(roots.sort()).toEqual(Object.keys(ALLOWED).sort());
});
