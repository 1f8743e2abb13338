/**
 * `ewp keys add|rotate|retire|revoke|list`: the signing keys a ledger's decision records are checked
 * against (docs/spec/receipts.md §5.4, §12.8), as `key.state` entries on the ledger's hash chain, so a
 * revocation is itself on record. The rules of a state change live in `changeKeyStates` of
 * `@ewp/tools`: a new id becomes ACTIVE, ACTIVE becomes RETIRED or REVOKED, RETIRED becomes REVOKED.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { EvidenceStore } from '@ewp/ledger';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { LEDGER_OPTIONS, ledgerSpec, openStore, StoreSpecError } from '../open-store.js';
import { parseVerbArguments, usageError } from '../verb-arguments.js';

const HELP = `usage: ewp keys list   (--db ./ewp.sqlite | --pg <url> | --json-dir <dir>) [--json]
       ewp keys add    <key-id> (--public-hex <64 hex> | --public-file <file>) (--db ...)
       ewp keys rotate <old-key-id> <new-key-id> (--public-hex <64 hex> | --public-file <file>) (--db ...)
       ewp keys retire <key-id> (--db ...)
       ewp keys revoke <key-id> (--db ...)

The Ed25519 public keys signed decision records are verified against, kept as key.state entries on
the ledger's hash chain (ewp decisions verify reads them). add: a new key id, ACTIVE. rotate: the new
key ACTIVE and the old one RETIRED, in one write. retire: the key signs nothing new; what it signed
still verifies. revoke: what it signed no longer verifies. A revoked key stays revoked; a retired key
is never active again. Public keys are 32 raw bytes as 64 lowercase hex digits (--public-file: a
file holding them). Only public keys are stored.

Exit: 0 done / listed, 1 the change is refused (the reason and its code on stderr; nothing written),
2 unusable ledger or arguments.
`;

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...LEDGER_OPTIONS,
      'public-hex': { type: 'string' },
      'public-file': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

const ARITY: Record<string, number> = { list: 0, add: 1, rotate: 2, retire: 1, revoke: 1 };

export const keysCommand: Command = async (args: string[], io: CliIO) => {
  const parsed = parseVerbArguments('keys', HELP, io, () => parse(args));
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [sub, ...ids] = positionals;
  if (sub === undefined || !Object.hasOwn(ARITY, sub)) return usageError('keys', 'expected list, add, rotate, retire or revoke', io);
  if (ids.length !== ARITY[sub])
    return usageError('keys', `${sub} takes ${ARITY[sub] === 0 ? 'no key id' : ARITY[sub] === 1 ? 'one key id' : 'the old and the new key id'}`, io);
  const takesKey = sub === 'add' || sub === 'rotate';
  const given = [values['public-hex'], values['public-file']].filter((v) => v !== undefined);
  if (takesKey && given.length !== 1) return usageError('keys', `${sub} needs the new public key: --public-hex or --public-file, one of them`, io);
  if (!takesKey && given.length > 0) return usageError('keys', `${sub} takes no public key (the ledger holds it)`, io);
  let publicHex: string | undefined;
  if (takesKey) {
    try {
      publicHex = values['public-hex'] ?? readFileSync(resolve(io.cwd, values['public-file'] as string), 'utf8').trim();
    } catch (error) {
      return usageError('keys', `--public-file: ${(error as Error).message}`, io);
    }
  }
  let store: EvidenceStore;
  try {
    store = await openStore({ ...ledgerSpec(values, io.cwd), readOnly: sub === 'list' });
  } catch (error) {
    io.stderr.write(`ewp keys: ${StoreSpecError.isInstance(error) ? '' : 'unusable ledger: '}${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  try {
    const tools = await import('@ewp/tools');
    const keys = await tools.listKeyStates(store);
    if (sub === 'list') {
      if (values.json) for (const k of keys) io.stdout.write(`${JSON.stringify(k)}\n`);
      else {
        io.stdout.write('key_id\tstate\tsince\tpublic_key_hex\n');
        for (const k of keys) io.stdout.write(`${k.key_id}\t${k.state}\t${k.since}\t${k.public_key_hex}\n`);
      }
      return EXIT_OK;
    }
    const [first, second] = ids as [string, string | undefined];
    const publicOf = (id: string) => keys.find((k) => k.key_id === id)?.public_key_hex ?? '';
    const changes: Parameters<typeof tools.changeKeyStates>[1] =
      sub === 'add'
        ? [{ key_id: first, public_key_hex: publicHex as string, state: 'ACTIVE' }]
        : sub === 'rotate'
          ? [
              { key_id: second as string, public_key_hex: publicHex as string, state: 'ACTIVE' },
              { key_id: first, public_key_hex: publicOf(first), state: 'RETIRED' },
            ]
          : [{ key_id: first, public_key_hex: publicOf(first), state: sub === 'retire' ? 'RETIRED' : 'REVOKED' }];
    // A state change of an unknown key is refused by its rule ("add it first"), not by the empty public key.
    if (sub !== 'add' && publicOf(first) === '') {
      io.stderr.write(`ewp keys: EWP_REFUSE_INVALID_ARGUMENTS: no key ${JSON.stringify(first)} is registered; add it first\n`);
      return EXIT_SOME_FAILED;
    }
    for (const k of await tools.changeKeyStates(store, changes)) io.stdout.write(`${k.key_id}\t${k.state}\t${k.since}\n`);
    return EXIT_OK;
  } catch (error) {
    // The message of a refusal names the change's field (`$[0].state: …`).
    const code = (error as { code?: unknown }).code;
    io.stderr.write(`ewp keys: ${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}\n`);
    return code === 'EWP_REFUSE_INVALID_ARGUMENTS' ? EXIT_SOME_FAILED : EXIT_USAGE;
  } finally {
    await store.close().catch(() => undefined);
  }
};
