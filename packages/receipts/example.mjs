import { decodeView } from '@ewp/core';
import { Ed25519Signer, Ed25519Verifier, issueWarrantReceipt, verifyWarrantReceipt } from '@ewp/receipts';

const source = {
  source_id: 'chat-1',
  lineage_id: 'L-chat-1',
  origin_type: 'turn',
  origin_locator: 'chat 1, message 4',
  snapshot_id: 'chat-1',
  content_hash: 'sha256:chat-1',
  observed_at: '2026-03-02T15:10:00Z',
};
const view = decodeView({
  proposition_id: 'P-db-version',
  assertions: [
    {
      assertion_id: 'a-1',
      proposition_id: 'P-db-version',
      text: 'The database runs PostgreSQL 16.',
      asserted_by: 'assistant',
      assertion_confidence: 0.9,
      asserted_at: '2026-03-02T15:10:00Z',
      source,
    },
  ],
  evidence: [],
});

const signer = new Ed25519Signer('issuer-1', '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60'); // a 32-byte RFC 8032 seed
const { signed } = issueWarrantReceipt(view, '2026-03-03T09:00:00Z', { signer });

// Later, anywhere: re-evaluate the view and re-derive every digest; any difference fails closed.
const verifier = new Ed25519Verifier({ 'issuer-1': { public_hex: signer.publicKeyHex(), state: 'ACTIVE' } });
const check = verifyWarrantReceipt(signed, view, { verifier });
console.log(check.ok, check.status); // true VERIFIED
