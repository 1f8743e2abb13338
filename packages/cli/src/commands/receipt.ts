import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeUtf8, EwpError, InvalidJsonError, parseJson, parseJsonStrict } from '@ewp/core';
import { CanonicalizationError, readJsonExact } from '@ewp/canonical';
import {
  Ed25519Signer,
  Ed25519Verifier,
  KEY_STATES,
  type KeyState,
  type ProofReceipt,
  type RegisteredKey,
  type SignedProofReceipt,
  type SignedWarrantReceipt,
  type WarrantReceipt,
  decodeCheckpoint,
  decodeVerificationResult,
  issueWarrantReceipt,
  verifyIssuedWarrantReceipt,
  verifySignedReceipt,
  verifyWarrantReceipt,
} from '@ewp/receipts';
import { type CliIO, type Command, EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE } from '../cli-io.js';
import { UsageError } from '../errors.js';
import { usageError } from '../verb-arguments.js';

const HELP = `usage: ewp receipt issue <view.json|-> [--at T] [--key SEED_FILE --key-id ID] [--out FILE]
       ewp receipt verify <receipt.json> <view.json|-> [--keys REGISTRY.json | --public-key HEX --key-id ID]
       ewp receipt verify <proof-receipt.json> <checkpoint.json> [--result RESULT.json] [--keys … | --public-key …]

issue   Evaluate the view (EWP-0.2.0, reference-v2) at T (default: the view's "evaluated_at") and
        write {"receipt", "receipt_digest", "signed"?} as JSON. With --key (a file holding the
        64-hex Ed25519 seed) and --key-id the receipt is also signed.
verify  Re-evaluate the view at the receipt's own policy and T and re-derive both digests; any
        difference fails. With --keys ({"key-id": {"public_hex", "state"}}) or --public-key and
        --key-id, the signature must verify too (REVOKED/UNKNOWN keys fail closed). Writes the
        verification as JSON.
        An EvidenceBound proof receipt (or signed envelope) is checked against a checkpoint instead
        (and its verification result with --result), in the reference's status order.

Input files are UTF-8: other bytes are refused (INVALID_UTF8, with the byte offset), never replaced.

Exit codes: 0 issued / verified; 1 refused view or failed verification; 2 bad arguments or files.
`;

/** A file's text (`-` is stdin). Bytes that are not UTF-8 are refused, so a receipt binds exactly the bytes it was issued for. */
async function readText(path: string, io: CliIO): Promise<string> {
  let bytes: Buffer;
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    bytes = Buffer.concat(chunks);
  } else {
    try {
      bytes = await readFile(resolve(io.cwd, path));
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
    }
  }
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    throw new EwpError('INVALID_UTF8', `${path}: ${(error as Error).message}`, { cause: error });
  }
}

function viewAt(view: unknown, at: string | undefined): string {
  if (at !== undefined) return at;
  const own = (view as { evaluated_at?: unknown } | null)?.evaluated_at;
  if (typeof own !== 'string') throw new UsageError('no --at given and the view has no "evaluated_at" string');
  return own;
}

async function issue(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { at: { type: 'string' }, key: { type: 'string' }, 'key-id': { type: 'string' }, out: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) throw new UsageError('issue needs exactly one view file (or - for stdin)');
  if ((values.key === undefined) !== (values['key-id'] === undefined)) throw new UsageError('--key and --key-id go together');
  const view = parseJson(await readText(positionals[0] as string, io));
  let signer: Ed25519Signer | undefined;
  if (values.key !== undefined) {
    const seed = (await readText(values.key, io)).trim();
    if (!/^[0-9a-fA-F]{64}$/.test(seed)) throw new UsageError(`${values.key} must hold a 64-hex-character Ed25519 seed`);
    signer = new Ed25519Signer(values['key-id'] as string, seed.toLowerCase());
  }
  const issued = issueWarrantReceipt(view, viewAt(view, values.at), { signer });
  const out = { receipt: issued.receipt, receipt_digest: issued.receipt_digest, ...(issued.signed ? { signed: issued.signed } : {}) };
  const text = `${JSON.stringify(out, null, 2)}\n`;
  if (values.out !== undefined) await writeFile(resolve(io.cwd, values.out), text);
  else io.stdout.write(text);
  return EXIT_OK;
}

function registryFrom(value: unknown, path: string): Record<string, RegisteredKey> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`${path} must be a JSON object`);
  const out: Record<string, RegisteredKey> = {};
  for (const [id, k] of Object.entries(value as Record<string, unknown>)) {
    const key = k as Partial<RegisteredKey> | null;
    if (!key || typeof key.public_hex !== 'string' || !/^[0-9a-f]{64}$/.test(key.public_hex)) {
      throw new UsageError(`${path}: key ${JSON.stringify(id)} needs "public_hex" (64 lowercase hex)`);
    }
    if (!KEY_STATES.includes(key.state as KeyState)) throw new UsageError(`${path}: key ${JSON.stringify(id)} has no valid "state"`);
    out[id] = { public_hex: key.public_hex, state: key.state as KeyState };
  }
  return out;
}

async function verify(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { keys: { type: 'string' }, 'public-key': { type: 'string' }, 'key-id': { type: 'string' }, result: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length !== 2) throw new UsageError('verify needs a receipt file and a view file');
  if (values.keys !== undefined && values['public-key'] !== undefined) throw new UsageError('use --keys or --public-key, not both');
  if ((values['public-key'] === undefined) !== (values['key-id'] === undefined)) {
    throw new UsageError('--public-key and --key-id go together');
  }
  const receiptPath = positionals[0] as string;
  let doc: unknown;
  try {
    // Strict: a key given twice would let one reader see another receipt than the verifier.
    doc = parseJsonStrict(await readText(receiptPath, io));
  } catch (error) {
    if (InvalidJsonError.isInstance(error)) throw new UsageError(`${receiptPath}: ${error.code}: ${error.message}`);
    throw error;
  }
  // Accept the output of `ewp receipt issue` ({receipt, signed?}), an envelope, or a bare receipt.
  const d = doc as { receipt?: unknown; signed?: unknown; signature?: unknown };
  const item = (d && typeof d === 'object' && 'signed' in d ? d.signed : d && typeof d === 'object' && 'signature' in d ? d : (d?.receipt ?? d)) as
    | WarrantReceipt
    | SignedWarrantReceipt;
  let verifier: Ed25519Verifier | undefined;
  if (values.keys !== undefined) verifier = new Ed25519Verifier(registryFrom(await readStrict(values.keys, io), values.keys));
  if (values['public-key'] !== undefined) {
    if (!/^[0-9a-f]{64}$/.test(values['public-key'])) throw new UsageError('--public-key must be 64 lowercase hex characters');
    verifier = new Ed25519Verifier({ [values['key-id'] as string]: { public_hex: values['public-key'], state: 'ACTIVE' } });
  }
  const inner = (item as { receipt?: unknown }).receipt ?? item;
  if (inner !== null && typeof inner === 'object' && 'checkpoint_digest' in inner) {
    return verifyProof(item as unknown as SignedProofReceipt | ProofReceipt, positionals[1] as string, values.result, verifier, io);
  }
  const viewText = await readText(positionals[1] as string, io);
  let view: unknown;
  try {
    view = parseJson(viewText);
  } catch {
    view = undefined; // verifyWarrantReceipt reports INVALID_VIEW
  }
  // The output of `ewp receipt issue`: its top-level copies must agree with what is verified.
  const issued = d !== null && typeof d === 'object' && !('signature' in d) && ('signed' in d || 'receipt' in d);
  const result = issued ? verifyIssuedWarrantReceipt(d, view, { verifier }) : verifyWarrantReceipt(item, view, { verifier });
  io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!result.ok) io.stderr.write(`ewp receipt verify: ${result.status}: ${result.reason}\n`);
  return result.ok ? EXIT_OK : EXIT_SOME_FAILED;
}

/** A JSON file read with core's strict reader; what it refuses is a usage error naming the file. */
async function readStrict(path: string, io: CliIO): Promise<unknown> {
  try {
    return parseJsonStrict(await readText(path, io));
  } catch (error) {
    if (InvalidJsonError.isInstance(error)) throw new UsageError(`${path}: ${error.code}: ${error.message}`);
    throw error;
  }
}

async function readExact(path: string, io: CliIO): Promise<unknown> {
  try {
    return readJsonExact(await readText(path, io), { duplicateKeys: 'refuse' });
  } catch (error) {
    if (CanonicalizationError.isInstance(error)) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
}

/** Proof receipts of the EvidenceBound layer: binding (and signature, with a verifier) against a checkpoint. */
async function verifyProof(
  item: SignedProofReceipt | ProofReceipt,
  checkpointPath: string,
  resultPath: string | undefined,
  verifier: Ed25519Verifier | undefined,
  io: CliIO,
): Promise<number> {
  const cp = decodeCheckpoint(await readExact(checkpointPath, io));
  const result = resultPath === undefined ? null : decodeVerificationResult(await readExact(resultPath, io));
  // Without keys every signature is unverifiable: an empty registry makes that explicit (UNKNOWN_KEY).
  const check = verifySignedReceipt(item, cp, verifier ?? new Ed25519Verifier({}), result);
  io.stdout.write(`${JSON.stringify(check, null, 2)}\n`);
  if (!check.verified) io.stderr.write(`ewp receipt verify: ${check.status}: ${check.reason}\n`);
  return check.verified ? EXIT_OK : EXIT_SOME_FAILED;
}

/** `ewp receipt issue|verify`: warrant receipts (docs/spec/receipts.md §12). */
export const receiptCommand: Command = async (args: string[], io: CliIO): Promise<number> => {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help')) {
    io.stdout.write(HELP);
    return sub === undefined ? EXIT_USAGE : EXIT_OK;
  }
  try {
    if (sub === 'issue') return await issue(rest, io);
    if (sub === 'verify') return await verify(rest, io);
    throw new UsageError(`unknown subcommand ${JSON.stringify(sub)}`);
  } catch (error) {
    if (UsageError.isInstance(error) || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      return usageError('receipt', (error as Error).message, io);
    }
    // Every refusal of @ewp/receipts, @ewp/canonical and @ewp/core; the message starts with the JSON path when there is one.
    if (EwpError.isInstance(error)) {
      io.stderr.write(`ewp receipt: refused (${error.code}): ${error.message}\n`);
      // A file that is not UTF-8 is unusable, like an unreadable one; other refusals are of the view or receipt.
      return error.code === 'INVALID_UTF8' ? EXIT_USAGE : EXIT_SOME_FAILED;
    }
    throw error;
  }
};
