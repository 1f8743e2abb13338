/**
 * What the memory verbs (`store`, `recall`, `evidence`, `memory`) share: the ledger options, opening a
 * {@link MemoryLedger} over the named store with its salience side file, and how a refusal is printed.
 * The verbs only parse and print; every rule is the library's.
 */
import { existsSync } from 'node:fs';
import { EwpError } from '@ewp/core';
import type { EvidenceStore } from '@ewp/ledger';
import { type MemoryConfigInput, MemoryLedger, openSalienceStore } from '@ewp/memory';
import { type CliIO, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { EPISTEMIC_HELP, EPISTEMIC_OPTIONS, type EpistemicValues, epistemicSettings } from '../epistemic-options.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';

/** Options of every memory verb: the ledger, the salience file, the evidence-layer settings, JSON output, help. */
export const MEMORY_VERB_OPTIONS = {
  ...LEDGER_OPTIONS,
  ...EPISTEMIC_OPTIONS,
  salience: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The help lines every memory verb shares. */
export const MEMORY_LEDGER_HELP = `Ledger: --db ./ewp.sqlite | --pg <url> | --json-dir <dir> (exactly one).
Salience (recall counts, energy, importance) is kept apart from the ledger, in --salience <file>;
by default <db>.salience.jsonl beside a SQLite file or <dir>.salience.jsonl beside a JSON-file ledger,
and in memory only for --pg.
${EPISTEMIC_HELP}`;

/** The memory verbs that may create the ledger they name: the first memory stored starts one. */
const CREATES_LEDGER: ReadonlySet<string> = new Set(['store']);

/** Open the memory layer over the named ledger; prints why and returns an exit code when it cannot. */
async function openMemoryLedger(
  verb: string,
  values: { db?: string; pg?: string; 'json-dir'?: string; salience?: string } & EpistemicValues,
  io: CliIO,
  readOnly: boolean,
): Promise<{ memory: MemoryLedger; store: EvidenceStore } | number> {
  let config: MemoryConfigInput;
  try {
    config = epistemicSettings(values, io.cwd);
  } catch (error) {
    io.stderr.write(`ewp ${verb}: ${EwpError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  let store: EvidenceStore;
  try {
    const spec = ledgerSpec(values, io.cwd);
    // Only `store` starts a ledger. Any other verb given a missing one (`recall --db typo.sqlite`) is
    // refused as a read-only open refuses it, rather than creating an empty ledger and answering from it.
    if (!readOnly && !CREATES_LEDGER.has(verb)) {
      const path = spec.db ?? spec.jsonDir;
      if (path === undefined || !existsSync(path)) await (await openStore({ ...spec, readOnly: true })).close();
    }
    store = await openStore({ ...spec, readOnly });
  } catch (error) {
    io.stderr.write(`ewp ${verb}: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    // The side file beside the ledger: the rule `ewp serve` follows too (saliencePathFor). A verb that
    // cannot write the ledger only reads it; one that can writes it only while no other process (a
    // running `ewp serve`) holds it, and says so on stderr when its changes could not be kept.
    const salience = openSalienceStore(
      {
        ...(values.db === undefined ? {} : { db: values.db }),
        ...(values['json-dir'] === undefined ? {} : { jsonDir: values['json-dir'] }),
        ...(values.salience === undefined ? {} : { salience: values.salience }),
        cwd: io.cwd,
      },
      { readOnly, onWarning: (message) => io.stderr.write(`ewp ${verb}: warning: ${message}\n`) },
    );
    return { memory: new MemoryLedger(store, { salience, config }), store };
  } catch (error) {
    await store.close().catch(() => undefined);
    io.stderr.write(`ewp ${verb}: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
}

/** Run `body` on an open memory ledger; a typed refusal prints its code and exits 1, anything else propagates. */
export async function withMemoryLedger(
  verb: string,
  values: { db?: string; pg?: string; 'json-dir'?: string; salience?: string } & EpistemicValues,
  io: CliIO,
  readOnly: boolean,
  body: (memory: MemoryLedger) => Promise<number>,
): Promise<number> {
  const opened = await openMemoryLedger(verb, values, io, readOnly);
  if (typeof opened === 'number') return opened;
  try {
    return await body(opened.memory);
  } catch (error) {
    if (!EwpError.isInstance(error)) throw error;
    io.stderr.write(`ewp ${verb}: ${error.code}: ${error.message}\n`);
    return EXIT_SOME_FAILED;
  } finally {
    try {
      opened.memory.close();
    } catch (error) {
      // Salience is advisory: the verb's answer stands when its recall counts could not be saved.
      io.stderr.write(`ewp ${verb}: warning: salience not saved: ${(error as Error).message}\n`);
    }
    await opened.store.close().catch(() => undefined);
  }
}

/** Print `value` as one JSON line. */
export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** A comma-separated list option (`--supports a,b`), empty items dropped. */
export function listOption(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
}
