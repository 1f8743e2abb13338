/**
 * One error root: every error class of every package extends `EwpError` from @ewp/core (code, JSON
 * path, cause, a `Symbol.for` marker for `isInstance`). This scans the sources for classes that
 * extend a built-in error directly. The few allowed below are not errors a caller ever sees; the
 * list must match exactly, so a new root fails and a stale entry fails too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

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

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

it('every error class extends EwpError (one root)', () => {
  const roots: string[] = [];
  const dirs = [...readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p)), join(root, 'conformance')];
  for (const dir of dirs) {
    for (const file of sources(dir)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/class\s+(\w+)\s+extends\s+(?:Error|TypeError|RangeError|SyntaxError)\b/g)) {
        roots.push(`${relative(root, file)} ${match[1]}`);
      }
    }
  }
  expect(roots.sort()).toEqual(Object.keys(ALLOWED).sort());
});
