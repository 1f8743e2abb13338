// Canonicalization and digest throughput (MB/s) against JSON.stringify on the same data, and the
// hash-chained log (build and verify) against bare SHA-256 over the same bytes.
// Results: <repo>/bench/results/canonical.json
import { createHash } from 'node:crypto';
import { EMPTY_ANCHOR, buildChainEntries, domainDigest, ebcj1Bytes, ebcj1String, jcsString, sha256Hex, verifyChain } from '../dist/index.js';
import { QUICK, fmt, machine, pairedRatio, rates, table, timed, writeResults } from '../../../bench/machine.mjs';

/** Datasets shaped like what the package hashes, each about 1 MB of JSON. */
function datasets() {
  const records = [];
  for (let i = 0; records.length < 3000; i++) {
    records.push({
      evidence_id: `e${i}`,
      payload: { value: i, text: `observation number ${i} from the log`, tags: ['a', 'b', String(i % 7)] },
      provenance: { source: 'tool', locator: `urn:example:${i}`, retrieved_at: null, content_type: 'text/plain', metadata: { rank: i % 10 } },
      observed_at: '2026-01-01T00:00:00Z',
      valid_until: null,
      explicitly_refuted: false,
    });
  }
  const wideObject = {};
  for (let i = 0; i < 20000; i++) wideObject[`key-${(i * 7919) % 20000}`] = i;
  const unicode = [];
  for (let i = 0; i < 4000; i++) unicode.push({ é: `café ${i}`, '😀': 'grinning', '\ue000': i, text: 'Ünïcödé тест 日本語 😀' });
  const strings = Array.from({ length: 2000 }, (_, i) => `a fairly long string value number ${i} with "quotes", tabs\t and newlines\n`.repeat(5));
  return { 'evidence-records': records, 'wide-object': wideObject, 'unicode-keys': unicode, 'long-strings': strings };
}

function canonicalRows() {
  const rows = [];
  const all = datasets();
  // The same records with keys already in canonical order, as values read back from canonical storage are.
  all['evidence-records (pre-sorted keys)'] = JSON.parse(ebcj1String(all['evidence-records']));
  for (const [name, value] of Object.entries(all)) {
    const bytes = Buffer.byteLength(JSON.stringify(value));
    const mb = bytes / 2 ** 20;
    const canonicalText = ebcj1String(value);
    const raw = Buffer.from(canonicalText, 'utf8');
    const r = rates({
      stringify: () => JSON.stringify(value),
      stringifyBytes: () => Buffer.from(JSON.stringify(value), 'utf8'),
      ebcj: () => ebcj1String(value),
      ebcjBytes: () => ebcj1Bytes(value),
      jcs: () => jcsString(value),
      digest: () => domainDigest('evidence', value),
      sha: () => sha256Hex(raw),
    });
    const v = Object.fromEntries(Object.entries(r).map(([k, x]) => [k, x * mb]));
    const paired = pairedRatio(
      () => ebcj1String(value),
      () => JSON.stringify(value),
    );
    rows.push({
      dataset: name,
      json_mb: fmt(mb, 2),
      'JSON.stringify MB/s': fmt(v.stringify),
      'ebcj1String MB/s': fmt(v.ebcj),
      'ratio vs stringify (paired median)': fmt(paired.median, 2),
      'paired min–max': `${fmt(paired.min, 2)}–${fmt(paired.max, 2)}`,
      'ebcj1Bytes MB/s': fmt(v.ebcjBytes),
      'bytes ratio (vs stringify+Buffer.from)': fmt(v.ebcjBytes / v.stringifyBytes, 2),
      'jcsString MB/s': fmt(v.jcs),
      'domainDigest MB/s': fmt(v.digest),
      'sha256 only MB/s': fmt(v.sha),
      raw: {
        json_bytes: bytes,
        stringify_mb_s: v.stringify,
        stringify_buffer_mb_s: v.stringifyBytes,
        ebcj1_string_mb_s: v.ebcj,
        ebcj1_bytes_mb_s: v.ebcjBytes,
        jcs_string_mb_s: v.jcs,
        domain_digest_mb_s: v.digest,
        sha256_mb_s: v.sha,
        ratio_ebcj1_vs_stringify: paired.median,
        ratio_ebcj1_vs_stringify_paired_min: paired.min,
        ratio_ebcj1_vs_stringify_paired_max: paired.max,
        ratio_ebcj1_vs_stringify_best_rates: v.ebcj / v.stringify,
        ratio_ebcj1_bytes_vs_stringify_bytes: v.ebcjBytes / v.stringifyBytes,
      },
    });
  }
  return rows;
}

/**
 * The hash-chained log: building and verifying N ledger-shaped events, against the floor of the
 * same work, one SHA-256 per entry over bytes already in hand (no canonicalization, no checks).
 */
function chainRows() {
  const rows = [];
  for (const n of QUICK ? [10_000] : [10_000, 100_000]) {
    const events = Array.from({ length: n }, (_, i) => ({
      type: i % 2 ? 'snapshot_committed' : 'record_appended',
      proposition_id: `p:${i % 97}`,
      view_id: `v-${i}`,
      digest: createHash('sha256').update(String(i)).digest('hex'),
      records: i % 5,
    }));
    const built = buildChainEntries(EMPTY_ANCHOR, events);
    const texts = built.entries.map((e) => Buffer.from(e.event, 'utf8'));
    const runs = QUICK ? 3 : 7;
    const build = timed(() => buildChainEntries(EMPTY_ANCHOR, events), runs);
    const verify = timed(() => verifyChain(built.entries, built.anchor), runs);
    const floor = timed(() => {
      let prev = Buffer.alloc(32);
      for (const t of texts) prev = createHash('sha256').update(prev).update(t).digest();
    }, runs);
    rows.push({
      entries: n,
      'build ms': fmt(build.median_ms),
      'verify ms': fmt(verify.median_ms),
      'bare SHA-256 chain ms': fmt(floor.median_ms),
      'build / bare': fmt(build.median_ms / floor.median_ms, 2),
      'verify / bare': fmt(verify.median_ms / floor.median_ms, 2),
      raw: {
        entries: n,
        build,
        verify,
        bare_sha256: floor,
        build_vs_bare: build.median_ms / floor.median_ms,
        verify_vs_bare: verify.median_ms / floor.median_ms,
      },
    });
  }
  return rows;
}

const canonical = canonicalRows();
const chain = chainRows();
const path = writeResults('canonical', {
  canonicalization: canonical.map(({ raw, dataset }) => ({ dataset, ...raw })),
  hash_chain: chain.map(({ raw }) => raw),
});
const m = machine();
console.log(`canonical bench — ${m.cpu}, ${m.cores} cores, Node ${m.node}, load average ${m.load_average_1_5_15.join(' ')}${QUICK ? ' (quick)' : ''}\n`);
console.log(
  table(canonical, [
    'dataset',
    'json_mb',
    'JSON.stringify MB/s',
    'ebcj1String MB/s',
    'ratio vs stringify (paired median)',
    'paired min–max',
    'ebcj1Bytes MB/s',
    'bytes ratio (vs stringify+Buffer.from)',
    'jcsString MB/s',
    'domainDigest MB/s',
    'sha256 only MB/s',
  ]),
);
console.log(`\n${table(chain, ['entries', 'build ms', 'verify ms', 'bare SHA-256 chain ms', 'build / bare', 'verify / bare'])}`);
console.log(`\nwrote ${path}`);
