/**
 * Each package owns its error codes: core's `EWP_ERROR_CODES` keeps the kernel's codes and the ones
 * several packages raise; a code only one package raises lives in that package's table
 * (`CLI_ERROR_CODES`, `RECEIPTS_ERROR_CODES`, …, declared `satisfies ErrorCodeTable`). The codes are
 * wire strings (MCP results, REST bodies, CLI output): a code lives in exactly one table, and none
 * published here may disappear or be renamed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositoryFiles, repositoryRoot } from './repository-files.js';

/** The codes published when the tables were split out of core (EWP 0.2): each must stay in some table. */
const PUBLISHED = [
  'BAD_EVALUATED_AT',
  'BAD_FORMAT',
  'BAD_TIMESTAMP',
  'BLANK_ALGORITHM',
  'BLANK_KEY_ID',
  'CANONICALIZATION_VERSION',
  'CYCLE',
  'DUPLICATE_CHECKPOINT_ID',
  'DUPLICATE_EVIDENCE_IDS',
  'DUPLICATE_ID',
  'DUPLICATE_KEY',
  'EMPTY_SIGNATURE',
  'EMPTY_STRING',
  'EWP_MISSING_EVALUATED_AT',
  'EWP_REFUSE_CLIENT_RISK_POLICY',
  'EWP_REFUSE_CLIENT_SUPPLIED_WARRANT',
  'EWP_REFUSE_DECISION_NOT_EXECUTABLE',
  'EWP_REFUSE_DECISION_NOT_RECORDED',
  'EWP_REFUSE_DECISION_UNKNOWN',
  'EWP_REFUSE_EVALUATED_AT_SKEW',
  'EWP_REFUSE_IMMUTABLE_RECORD',
  'EWP_REFUSE_INGEST_ROLE',
  'EWP_REFUSE_INLINE_VIEW_FOR_ACTION',
  'EWP_REFUSE_INVALID_ACTION',
  'EWP_REFUSE_INVALID_ARGUMENT',
  'EWP_REFUSE_INVALID_ARGUMENTS',
  'EWP_REFUSE_INVALID_ENTRY',
  'EWP_REFUSE_INVALID_EVIDENCE_VIEW',
  'EWP_REFUSE_LEDGER_UNAVAILABLE',
  'EWP_REFUSE_MAY_ACT_WITHOUT_ACTION',
  'EWP_REFUSE_MEMORY_CLASS_CONFLICT',
  'EWP_REFUSE_MEMORY_INPUT',
  'EWP_REFUSE_MEMORY_LINK_CONFLICT',
  'EWP_REFUSE_MEMORY_PROJECT_SCOPE',
  'EWP_REFUSE_MEMORY_SELF_LINK',
  'EWP_REFUSE_MEMORY_SUPPORT_CLASS',
  'EWP_REFUSE_MEMORY_UNKNOWN',
  'EWP_REFUSE_MISSING_CONTENT_HASH',
  'EWP_REFUSE_MISSING_OBSERVED_AT',
  'EWP_REFUSE_MISSING_VIEW',
  'EWP_REFUSE_PERSIST_WARRANT',
  'EWP_REFUSE_RESERVED_NAMESPACE',
  'EWP_REFUSE_STALE_VIEW_FOR_ACTION',
  'EWP_REFUSE_UNATTESTED_TRUSTED_ORIGIN',
  'EWP_REFUSE_UNSTORABLE_TEXT',
  'EWP_UNKNOWN_RESOURCE',
  'EWP_UNKNOWN_TOOL',
  'FLOAT',
  'INPUT_TOO_LARGE',
  'INSPECTOR_ASSETS_MISSING',
  'INSPECT_BAD_REQUEST',
  'INTEGER_TOO_LONG',
  'INVALID_ACTION',
  'INVALID_UTF8',
  'INVALID_WARRANT',
  'JSON_SYNTAX',
  'KEY_NOT_ACTIVE',
  'LONE_SURROGATE',
  'MISSING_DEPENDENCY',
  'MISSING_FIELD',
  'NAIVE_TIMESTAMP',
  'NON_STRING_KEY',
  'NOT_AN_ID_LIST',
  'NOT_AN_OBJECT',
  'NOT_FINITE',
  'OUT_OF_RANGE',
  'PERSISTENCE',
  'PERSISTENCE_INTEGRITY',
  'RECEIPT_VERSION',
  'REPLAY_CONFLICT',
  'SEQ_MISMATCH',
  'SOURCE_REF_MISMATCH',
  'SPARSE_ARRAY',
  'TIMESTAMP_OUT_OF_RANGE',
  'TOO_DEEP',
  'UNBOUND_PROPOSITION',
  'UNKNOWN_CHECKPOINT',
  'UNKNOWN_DEPENDENCIES',
  'UNKNOWN_ENUM_VALUE',
  'UNKNOWN_POLICY',
  'UNSAFE_BIND',
  'UNSAFE_NUMBER',
  'UNSUPPORTED_SCHEMA',
  'UNSUPPORTED_TEXT_VALUE',
  'UNSUPPORTED_TYPE',
  'USAGE',
  'WRONG_TYPE',
];

/** Every `export const X_ERROR_CODES = { … }` table of the packages' production sources, by `file TABLE`. */
function codeTables(): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  const sources = repositoryFiles().filter((f) => /^packages\/[^/]+\/src\/.*\.ts$/.test(f) && !/\.test\.ts$|\/(test|testing)\//.test(f));
  for (const file of sources) {
    const text = readFileSync(join(repositoryRoot, file), 'utf8');
    for (const match of text.matchAll(/^export const ([A-Z][A-Z_]*_ERROR_CODES) = \{\n([\s\S]*?)^\} as const( satisfies ErrorCodeTable)?;/gm)) {
      const name = `${file} ${match[1]}`;
      expect(match[3], `${name} is declared satisfies ErrorCodeTable`).toBeDefined();
      tables.set(
        name,
        [...(match[2] as string).matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] as string),
      );
    }
  }
  return tables;
}

it('every package table is found, and each code lives in exactly one table', () => {
  const tables = codeTables();
  expect([...tables.keys()]).toContain('packages/core/src/error-codes.ts EWP_ERROR_CODES');
  expect(tables.size).toBeGreaterThan(1);
  const owner = new Map<string, string>();
  const twice: string[] = [];
  for (const [table, codes] of tables) {
    expect(codes.length, table).toBeGreaterThan(0);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      if (owner.has(code)) twice.push(`${code}: ${owner.get(code)} and ${table}`);
      owner.set(code, table);
    }
  }
  expect(twice).toEqual([]);
});

it('no published code disappeared or was renamed', () => {
  const all = new Set([...codeTables().values()].flat());
  expect(PUBLISHED.filter((code) => !all.has(code))).toEqual([]);
});
