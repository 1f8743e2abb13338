// Receipt signing and verification rates against raw Ed25519 on the same machine, in the same run.
// Results: <repo>/bench/results/receipts-signing.json
import { createHash } from 'node:crypto';
import { Ed25519Signer, Ed25519Verifier, signReceipt, verifyCheckpoint, verifySignedReceipt } from '../dist/index.js';
import { QUICK, fmt, machine, rate, table, writeResults } from '../../../bench/machine.mjs';

function signingRows() {
  const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
  const signer = new Ed25519Signer('key-1', seed);
  const verifier = new Ed25519Verifier({ 'key-1': { public_hex: signer.publicKeyHex(), state: 'ACTIVE' } });
  const cp = {
    checkpoint_id: 'A',
    agent: 'A',
    evidence: [
      {
        evidence_id: 'e1',
        payload: { value: 1 },
        provenance: { source: 'tool', locator: 'urn:x', retrieved_at: null, content_type: null, metadata: {} },
        observed_at: null,
        valid_until: null,
        explicitly_refuted: false,
      },
    ],
    output: { step: 'A' },
    policy: { policy_id: 'safety', version: '1', require_provenance: true, consequential: true },
    depends_on: [],
    operation_id: null,
    schema_version: '1',
  };
  const result = verifyCheckpoint(cp);
  const envelope = signReceipt(result.receipt, signer);
  const bytes = createHash('sha256').update('x').digest();
  const rawSig = signer.sign(bytes);
  const verifyCheckpointRate = rate(() => verifyCheckpoint(cp));
  const sign = rate(() => signReceipt(result.receipt, signer));
  const verify = rate(() => verifySignedReceipt(envelope, cp, verifier));
  const verifyWithResult = rate(() => verifySignedReceipt(envelope, cp, verifier, result));
  const rawSign = rate(() => signer.sign(bytes));
  const rawVerify = rate(() => verifier.verify({ algorithm: 'Ed25519', key_id: 'key-1', signed_bytes: bytes, signature: rawSig }));
  return [
    { operation: 'verifyCheckpoint (1 record)', 'per second': fmt(verifyCheckpointRate, 0) },
    { operation: 'signReceipt (canonicalize + Ed25519 sign)', 'per second': fmt(sign, 0) },
    { operation: 'verifySignedReceipt (envelope + binding)', 'per second': fmt(verify, 0) },
    { operation: 'verifySignedReceipt with result', 'per second': fmt(verifyWithResult, 0) },
    { operation: 'raw Ed25519 sign (baseline)', 'per second': fmt(rawSign, 0) },
    { operation: 'raw Ed25519 verify (baseline)', 'per second': fmt(rawVerify, 0) },
  ];
}

const signing = signingRows();
const path = writeResults('receipts-signing', {
  signing: signing.map((r) => ({ operation: r.operation, per_second: Number(r['per second']) })),
});
const m = machine();
console.log(`receipts signing bench — ${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.load_average_1_5_15.join(' ')}${QUICK ? ' (quick)' : ''}\n`);
console.log(table(signing, ['operation', 'per second']));
console.log(`\nwrote ${path}`);
