/**
 * The shared arguments of `memory_store` / `memory_recall` over a real SQLite ledger: the schema
 * refuses the first bad argument with its JSON path, the agent shape never lets a model choose its
 * source or scope, and the mapping reaches the ledger with class, supports and T intact.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_SPECS } from '@ewp/spec/tools';
import { AGENT_MEMORY_TOOL_ARGUMENTS, memoryRecallQuery, memoryStoreInput, memoryWriteInput, writerSource } from './memory-tool-args.js';
import { ToolRefusal } from './refusal.js';
import { parseToolArguments } from './tool-arguments.js';

const dir = mkdtempSync(join(tmpdir(), 'ewp-memory-tool-args-'));
const stores: SqliteEvidenceStore[] = [];
afterAll(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function ledger(): MemoryLedger {
  const store = new SqliteEvidenceStore(join(dir, `l-${stores.length}.sqlite`));
  stores.push(store);
  return new MemoryLedger(store, { now: () => '2026-03-01T00:00:00Z' });
}

function refusalOf(run: () => unknown): ToolRefusal {
  try {
    run();
  } catch (error) {
    if (ToolRefusal.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseToolArguments with the memory schemas', () => {
  it('refuses the first bad argument with EWP_REFUSE_INVALID_ARGUMENTS and its JSON path (array index included)', () => {
    const store = TOOL_SPECS.memory_store.input;
    const bad = refusalOf(() => parseToolArguments(store, { text: 'x', epistemic_class: 'observation', supports: ['a', ''] }));
    expect([bad.code, bad.path]).toEqual(['EWP_REFUSE_INVALID_ARGUMENTS', '$.supports[1]']);
    expect(bad.message.startsWith('$.supports[1]: ')).toBe(true);
    const cls = refusalOf(() => parseToolArguments(store, { text: 'x', epistemic_class: 'belief' }));
    expect(cls.path).toBe('$.epistemic_class');
    expect(refusalOf(() => parseToolArguments(store, null)).path).toBe('$.text');
  });

  it('the agent shape caps a recall at 100 rows where the server shape takes 1000', () => {
    expect(parseToolArguments(TOOL_SPECS.memory_recall.input, { limit: 1000 }).limit).toBe(1000);
    expect(refusalOf(() => parseToolArguments(AGENT_MEMORY_TOOL_ARGUMENTS.memory_recall, { limit: 101 })).path).toBe('$.limit');
  });
});

describe('memoryStoreInput / memoryRecallQuery reach the ledger', () => {
  it("a model's own source and project are dropped by the agent shape; the developer's scope is what is stored", async () => {
    const m = ledger();
    const args = parseToolArguments(AGENT_MEMORY_TOOL_ARGUMENTS.memory_store, {
      text: 'The backup job starts at 06:00',
      epistemic_class: 'observation',
      source: 'an-independent-witness',
      project: 'elsewhere',
    });
    const stored = await m.store(memoryStoreInput(args, { project: 'ops', source: 'agent' }));
    expect([stored.source, stored.project, stored.class]).toEqual(['agent', 'ops', 'observation']);
  });

  it('the server shape passes project, source and supports through; a fixed scope wins over an argument', async () => {
    const m = ledger();
    const read = (raw: unknown) => parseToolArguments(TOOL_SPECS.memory_store.input, raw);
    const fact = await m.store(
      memoryStoreInput(read({ text: 'The backup job starts at 06:00', epistemic_class: 'observation', source: 'scheduler', project: 'ops' })),
    );
    const log = await m.store(
      memoryStoreInput(
        read({ text: 'cron log: backup started 06:00:02', epistemic_class: 'observation', source: 'cron', project: 'ops', supports: [fact.hash] }),
      ),
    );
    expect(log.links.map((l) => [l.target, l.status])).toEqual([[fact.hash, 'linked']]);
    expect(memoryStoreInput(read({ text: 't', epistemic_class: 'inference', project: 'ops' }), { project: null }).project).toBeNull();

    const query = memoryRecallQuery(
      parseToolArguments(TOOL_SPECS.memory_recall.input, { query: 'backup', project: 'ops', class: 'observation', evaluated_at: '2026-03-02T00:00:00Z' }),
    );
    expect(query.at).toBe('2026-03-02T00:00:00Z');
    const rows = await m.recall(query);
    expect(rows.map((r) => r.hash).sort()).toEqual([fact.hash, log.hash].sort());
    expect(await m.recall(memoryRecallQuery({ query: 'backup' }, { project: 'elsewhere' }))).toEqual([]);
  });
});

describe('a memory write bound to its writer', () => {
  const read = (raw: unknown) => parseToolArguments(TOOL_SPECS.memory_store.input, raw);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as { code?: string; path?: string; message?: string };
    }
    throw new Error('not refused');
  };

  it('the source is the principal, or principal/source for a granted sub-source', () => {
    const writer = { principal: 'runner', observer: { sources: ['tool:http'] } };
    expect(memoryWriteInput(read({ text: 't', epistemic_class: 'inference' }), writer).source).toBe('runner');
    expect(memoryWriteInput(read({ text: 't', epistemic_class: 'observation', source: 'tool:http' }), writer).source).toBe('runner/tool:http');
    expect(memoryWriteInput(read({ text: 't', epistemic_class: 'hypothesis', source: 'tool:http' }), writer, { project: 'ops' })).toMatchObject({
      source: 'runner/tool:http',
      project: 'ops',
    });
  });

  it('refuses an ungranted source and an observation or evidence without the grant, naming the field and the flag', () => {
    const agent = { principal: 'agent' };
    expect(refusal(() => writerSource({ epistemic_class: 'inference', source: 'witness' }, agent))).toMatchObject({
      code: 'EWP_REFUSE_SOURCE_NOT_ALLOWED',
      path: '$.source',
      message: expect.stringContaining('--observer agent=witness'),
    });
    for (const epistemic_class of ['observation', 'evidence'] as const) {
      expect(refusal(() => writerSource({ epistemic_class }, agent))).toMatchObject({
        code: 'EWP_REFUSE_CLASS_NOT_ALLOWED',
        path: '$.epistemic_class',
        message: expect.stringContaining(`class ${epistemic_class}`),
      });
    }
    // A principal granted sub-sources only must name one to observe; the refusal lists them.
    const runner = { principal: 'runner', observer: { sources: ['tool:http', 'sensor:ntp'] } };
    expect(refusal(() => writerSource({ epistemic_class: 'observation' }, runner, '$.class'))).toMatchObject({
      code: 'EWP_REFUSE_CLASS_NOT_ALLOWED',
      path: '$.class',
      message: expect.stringContaining('tool:http, sensor:ntp'),
    });
    expect(writerSource({ epistemic_class: 'observation' }, { principal: 'operator', observer: { self: true } })).toBe('operator');
  });

  it('refuses a field past the field-limits table with its path', () => {
    expect(refusal(() => read({ text: 'x'.repeat(100_001), epistemic_class: 'inference' }))).toMatchObject({
      code: 'EWP_REFUSE_FIELD_TOO_LARGE',
      path: '$.text',
    });
    expect(refusal(() => read({ text: 't', epistemic_class: 'inference', source: 's'.repeat(129) }))).toMatchObject({
      code: 'EWP_REFUSE_FIELD_TOO_LARGE',
      path: '$.source',
    });
  });
});
