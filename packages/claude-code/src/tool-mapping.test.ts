import { EwpError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { mapToolCall, parseToolMapping } from './tool-mapping.js';

const mapping = parseToolMapping({
  tools: [
    { match: 'mcp__deploy__*', proposition: 'P-{tool_input.service}-deployable', action: { kind: 'deploy', risk: 'high', reversible: false } },
    { match: 'Bash', proposition: 'P-shell-ok', action: { action_id: 'bash:{tool_input.command}', kind: 'shell', risk: 'medium' } },
    { match: '*', proposition: 'P-any', action: { kind: 'other' } },
  ],
});

describe('parseToolMapping', () => {
  it('defaults unmapped to ask and keeps rules in file order', () => {
    expect(mapping.unmapped).toBe('ask');
    expect(mapping.noEvidence).toBe('deny');
    expect(parseToolMapping({ no_evidence: 'ask', tools: [] }).noEvidence).toBe('ask');
    expect(mapping.tools.map((t) => t.match)).toEqual(['mcp__deploy__*', 'Bash', '*']);
  });

  it.each([
    [null, '$'],
    [{}, '$.tools'],
    [{ unmapped: 'allow', tools: [] }, '$.unmapped'],
    [{ no_evidence: 'allow', tools: [] }, '$.no_evidence'],
    [{ tools: [{ match: '', proposition: 'P', action: { kind: 'k' } }] }, '$.tools[0].match'],
    [{ tools: [{ match: 'X', proposition: 'P-{cwd}', action: { kind: 'k' } }] }, '$.tools[0].proposition'],
    [{ tools: [{ match: 'X', proposition: 'P', action: { kind: 'k', risk: 'severe' } }] }, '$.tools[0].action.risk'],
    [{ tools: [{ match: 'X', proposition: 'P', action: { kind: 'k', reversible: 'no' } }] }, '$.tools[0].action.reversible'],
    [{ tools: [{ match: 'X', proposition: 'P', action: {} }] }, '$.tools[0].action.kind'],
    [{ tools: [], risk_policy: { high_requires_accepted: 1 } }, '$.risk_policy.high_requires_accepted'],
  ])('refuses %j naming %s', (json, path) => {
    try {
      parseToolMapping(json);
      expect.unreachable();
    } catch (e) {
      expect(EwpError.isInstance(e)).toBe(true);
      expect((e as EwpError).code).toBe('EWP_REFUSE_INVALID_ARGUMENTS');
      expect((e as EwpError).path).toBe(path);
    }
  });
});

describe('mapToolCall', () => {
  it('fills the proposition and the action from the first matching rule', () => {
    expect(mapToolCall(mapping, 'mcp__deploy__release', { service: 'api' })).toEqual({
      kind: 'gated',
      proposition: 'P-api-deployable',
      action: { action_id: 'mcp__deploy__release', kind: 'deploy', risk: 'high', reversible: false },
    });
    expect(mapToolCall(mapping, 'Bash', { command: 'ls' })).toMatchObject({ proposition: 'P-shell-ok', action: { action_id: 'bash:ls' } });
    expect(mapToolCall(mapping, 'Read', {})).toMatchObject({ proposition: 'P-any' });
  });

  it('a pattern matches the whole name; special characters are literal', () => {
    const m = parseToolMapping({ tools: [{ match: 'a.b', proposition: 'P', action: { kind: 'k' } }] });
    expect(mapToolCall(m, 'a.b', {}).kind).toBe('gated');
    expect(mapToolCall(m, 'axb', {}).kind).toBe('unmapped');
    expect(mapToolCall(m, 'a.bc', {}).kind).toBe('unmapped');
  });

  it('a placeholder the call cannot fill is reported, never left empty', () => {
    expect(mapToolCall(mapping, 'mcp__deploy__release', {})).toMatchObject({ kind: 'unfillable', reason: expect.stringContaining('tool_input.service') });
    expect(mapToolCall(mapping, 'mcp__deploy__release', { service: { nested: 1 } }).kind).toBe('unfillable');
    expect(mapToolCall(mapping, 'mcp__deploy__release', 'not an object').kind).toBe('unfillable');
  });
});
