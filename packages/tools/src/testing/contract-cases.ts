/**
 * The calls of the tool-contract suite: every tool with its arguments as given, each argument
 * (and each nested field, three levels deep) replaced by each malformed value, unknown extra
 * arguments, no arguments, and the conformance pack's fixtures stored and evaluated.
 */
import { loadFixtures } from '@ewp/conformance/pack';

/** One call of the suite. */
export interface ContractCall {
  tool: string;
  args: Record<string, unknown>;
  /** Short description for test names and failure messages. */
  label: string;
  /** Whether the call goes through the caller without the ingest role. */
  reader?: boolean;
}

/** The instant every seeded view is evaluated at. */
export const CONTRACT_T = '2026-09-21T21:00:00+00:00';

const HUGE = 'x'.repeat(200_000);
/** The malformed values every argument is replaced with. */
export const MALFORMED_VALUES: readonly unknown[] = [
  null,
  '',
  0,
  -1,
  true,
  false,
  [],
  {},
  'x',
  1.5,
  HUGE,
  [null],
  { a: { b: [1] } },
  '\u0000\ud800',
  1e308,
  -0,
];

function source(id: string, origin: string, lineage = `L-${id}`) {
  return {
    source_id: id,
    lineage_id: lineage,
    origin_type: origin,
    origin_locator: `loc:${id}`,
    snapshot_id: `snap:${id}`,
    content_hash: `sha256:${id}`,
    observed_at: '2026-09-01T00:00:00+00:00',
    extractor_id: null,
    parent_source_id: null,
  };
}

/** A tool-verified claim (ACCEPTED / EXTERNAL at {@link CONTRACT_T}). */
export function contractView(propositionId = 'P-win', viewId = 'v-ver') {
  const winrm = source('winrm', 'tool', 'L-obs');
  return {
    proposition_id: propositionId,
    view_id: viewId,
    assertions: [
      {
        assertion_id: 'a1',
        proposition_id: propositionId,
        text: 'server01 runs Windows Server 2022',
        asserted_by: 'agent',
        assertion_confidence: 0.9,
        source: winrm,
        asserted_at: '2026-09-21T18:30:00+00:00',
      },
    ],
    evidence: [
      {
        evidence_id: 'e1',
        proposition_id: propositionId,
        polarity: 'supports',
        source: winrm,
        content: 'Caption: Windows Server 2022',
        observed_at: '2026-09-21T18:30:00+00:00',
      },
    ],
    checks: [
      {
        check_id: 'k1',
        method: 'tool_observation',
        scope: 'server01',
        source: winrm,
        observed_at: '2026-09-21T18:30:00+00:00',
        result: 'supports',
        subjects: ['server01'],
      },
    ],
    freshness_policy_seconds: 604800,
    subjects: ['server01'],
  };
}

const recordSource = { content_hash: 'sha256:p', observed_at: '2026-09-21T18:40:00Z', origin_type: 'extract' };

/** The well-formed calls the malformed ones are derived from (`_inline` is a second shape of a tool). */
export const CONTRACT_BASE: Record<string, Record<string, unknown>> = {
  ewp_warrant_now: {
    proposition_id: 'P-win',
    view_id: 'v-ver',
    evaluated_at: CONTRACT_T,
    policy_id: 'reference-v2',
    policy_version: 'reference-v2',
    ingest_attestation: true,
  },
  ewp_warrant_now_inline: { view: contractView('P-inline'), evaluated_at: CONTRACT_T, ingest_attestation: true },
  ewp_evidence_view_put: { view: contractView('P-put'), ingest_attestation: true },
  ewp_evidence_view_get: { proposition_id: 'P-win', view_id: 'v-ver' },
  ewp_check_record: {
    proposition_id: 'P-win',
    check: { check_id: 'kf', method: 'inference', scope: 's', observed_at: CONTRACT_T, result: 'supports', subjects: ['server01'], source: recordSource },
    new_view_id: 'v-f',
    ingest_attestation: true,
  },
  ewp_evidence_record: {
    proposition_id: 'P-win',
    evidence: { evidence_id: 'ef', polarity: 'supports', content: 'c', observed_at: CONTRACT_T, source: recordSource },
    text: 'claim',
    assertion_id: 'af',
    asserted_by: 'agent',
    assertion_confidence: 0.5,
    new_view_id: 'v-e',
    ingest_attestation: true,
  },
  ewp_may_act: {
    proposition_id: 'P-win',
    action: { action_id: 'a', kind: 'shell', risk: 'high', reversible: false },
    risk_policy: { high_requires_accepted: true, high_requires_no_open_conflict: true },
  },
  ewp_memory_context: { proposition_id: 'P-win', evaluated_at: CONTRACT_T, view_id: 'v-ver', query: 'os' },
  ewp_list_propositions: { query: 'win', limit: 10 },
};

/** Every path into the arguments (objects only, up to three levels; arrays are replaced whole). */
function paths(value: Record<string, unknown>, prefix: string[] = [], depth = 0): string[][] {
  const out: string[][] = [];
  for (const [key, child] of Object.entries(value)) {
    out.push([...prefix, key]);
    if (depth < 2 && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      out.push(...paths(child as Record<string, unknown>, [...prefix, key], depth + 1));
    }
  }
  return out;
}

function replaced(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[path.at(-1) as string] = value;
  return copy;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 24 ? `${text.slice(0, 21)}...` : text;
}

/** The calls that seed a fresh ledger (through the ingest caller) before the suite runs. */
export function seedCalls(): ContractCall[] {
  return [{ tool: 'ewp_evidence_view_put', args: { view: contractView(), ingest_attestation: true }, label: 'seed P-win' }];
}

/** Every argument of every tool replaced by every malformed value, plus extra and missing arguments. */
export function argumentCalls(): ContractCall[] {
  const calls: ContractCall[] = [];
  for (const [label, base] of Object.entries(CONTRACT_BASE)) {
    const tool = label.replace(/_inline$/, '');
    calls.push({ tool, args: base, label: `${label} as given` });
    for (const path of paths(base)) {
      for (const value of MALFORMED_VALUES) {
        calls.push({ tool, args: replaced(base, path, value), label: `${label} ${path.join('.')}=${describeValue(value)}` });
      }
    }
    calls.push({ tool, args: { ...base, unexpected: HUGE }, label: `${label} + unexpected` });
    calls.push({ tool, args: {}, label: `${label} {}` });
    // Without the ingest role: writes refused first, a caller's risk policy refused.
    calls.push({ tool, args: base, label: `${label} as reader`, reader: true });
  }
  return calls;
}

/** The conformance pack's fixtures: each stored (attested) and evaluated at its T. */
export function fixtureCalls(): ContractCall[] {
  return loadFixtures().flatMap((f) => {
    const id = (f.view as { proposition_id?: unknown }).proposition_id;
    return [
      { tool: 'ewp_evidence_view_put', args: { view: f.view, ingest_attestation: true }, label: `${f.name} put` },
      { tool: 'ewp_warrant_now', args: { proposition_id: id, evaluated_at: f.evaluatedAt }, label: `${f.name} warrant` },
      { tool: 'ewp_warrant_now', args: { view: f.view, evaluated_at: f.evaluatedAt }, label: `${f.name} inline` },
    ];
  });
}
