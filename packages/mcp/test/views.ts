/** Views used across the MCP tests: a tool-verified claim and variants. */
import { testSource } from '@ewp/conformance';

export const T = '2026-09-21T21:00:00+00:00';
/** The fixed server clock of the in-process tests: one hour after the verification check. */
export const SERVER_NOW = new Date('2026-09-21T19:31:00Z');

export function source(id: string, origin: string, lineage = `L-${id}`) {
  return testSource(id, { origin_type: origin, lineage_id: lineage });
}

/** `08-verified-now` of the conformance pack: ACCEPTED / EXTERNAL at T. */
export function verifiedView(propositionId = 'P-win', viewId = 'v-ver', origin = 'tool') {
  const winrm = source('winrm', origin, 'L-obs');
  return {
    proposition_id: propositionId,
    view_id: viewId,
    assertions: [
      {
        assertion_id: 'a1',
        text: 'server01 runs Windows Server 2022',
        asserted_by: 'agent',
        assertion_confidence: 0.9,
        source: winrm,
        asserted_at: '2026-09-01T00:00:00+00:00',
      },
    ],
    evidence: [{ evidence_id: 'e1', polarity: 'supports', source: winrm, content: 'Get-ComputerInfo', observed_at: '2026-09-01T00:00:00+00:00' }],
    checks: [
      {
        check_id: 'k1',
        method: 'tool_observation',
        scope: 'server01',
        source: winrm,
        observed_at: '2026-09-21T18:31:00+00:00',
        result: 'supports',
        subjects: [],
      },
    ],
    conflicts: [],
    lineage: [],
    freshness_policy_seconds: 604800,
  };
}

/** An endogenous (extracted) claim: TENTATIVE / INDIRECT, writable without attestation. */
export function extractedView(propositionId = 'P-note', viewId = 'v1') {
  const chat = source('chat-1', 'extract');
  return {
    proposition_id: propositionId,
    view_id: viewId,
    assertions: [
      {
        assertion_id: 'a1',
        text: 'the deploy window is Friday',
        asserted_by: 'agent',
        assertion_confidence: 0.7,
        source: chat,
        asserted_at: '2026-09-01T00:00:00+00:00',
      },
    ],
    evidence: [{ evidence_id: 'e1', polarity: 'supports', source: chat, content: 'user said Friday', observed_at: '2026-09-01T00:00:00+00:00' }],
  };
}
