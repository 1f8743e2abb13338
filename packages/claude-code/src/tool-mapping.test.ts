import { InvalidArgumentError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { mapToolCall, observeToolCall, parseToolMapping } from './tool-mapping.js';

const mapping = parseToolMapping({
  risk_policy: { high_requires_accepted: false },
  tools: [
    { match: 'mcp__deploy__*', claim: '{tool_input.service} is deployable', action: { kind: 'deploy', risk: 'high', reversible: false } },
    { match: 'Bash', proposition: 'P-shell-ok', action: { action_id: 'bash:{tool_input.command}', kind: 'shell', risk: 'medium' } },
    { match: '*', proposition: 'P-any' },
  ],
  observe: [
    { match: 'mcp__ops__health', claim: '{tool_input.server} is healthy', supports_when: '"status":"ok"' },
    { match: 'Bash', input: { command: '^curl -fsS https://([a-z0-9]+)/health$' }, claim: 'the health endpoint answers' },
  ],
});

describe('parseToolMapping', () => {
  it('defaults unmapped to ask and keeps rules in file order', () => {
    expect(mapping.unmapped).toBe('ask');
    expect(mapping.noEvidence).toBe('deny');
    expect(parseToolMapping({ no_evidence: 'ask', tools: [] }).noEvidence).toBe('ask');
    expect(mapping.tools.map((t) => t.match)).toEqual(['mcp__deploy__*', 'Bash', '*']);
    // The file's snake_case becomes camelCase here, once.
    expect(mapping.riskPolicy).toEqual({ highRequiresAccepted: false });
    expect(mapping.tools[1]?.action).toEqual({ id: 'bash:{tool_input.command}', kind: 'shell', risk: 'medium' });
    expect(mapping.project).toBeNull();
    expect(parseToolMapping({ project: 'ops', tools: [] }).project).toBe('ops');
  });

  it.each([
    [null, '$'],
    [{}, '$.tools'],
    [{ unmapped: 'allow', tools: [] }, '$.unmapped'],
    [{ no_evidence: 'allow', tools: [] }, '$.no_evidence'],
    [{ project: 7, tools: [] }, '$.project'],
    [{ tools: [{ match: '', claim: 'c', action: { kind: 'k' } }] }, '$.tools[0].match'],
    [{ tools: [{ match: 'X', action: { kind: 'k' } }] }, '$.tools[0].claim'],
    [{ tools: [{ match: 'X', claim: 'c', proposition: 'P', action: { kind: 'k' } }] }, '$.tools[0].claim'],
    [{ tools: [{ match: 'X', claim: '{cwd} is up', action: { kind: 'k' } }] }, '$.tools[0].claim'],
    [{ tools: [{ match: 'X', proposition: 'P-{cwd}', action: { kind: 'k' } }] }, '$.tools[0].proposition'],
    [{ tools: [{ match: 'X', claim: 'c', action: { kind: 'k', risk: 'severe' } }] }, '$.tools[0].action.risk'],
    [{ tools: [{ match: 'X', claim: 'c', action: { kind: 'k', reversible: 'no' } }] }, '$.tools[0].action.reversible'],
    [{ tools: [{ match: 'X', claim: 'c', action: { kind: '' } }] }, '$.tools[0].action.kind'],
    [{ tools: [], risk_policy: { high_requires_accepted: 1 } }, '$.risk_policy.high_requires_accepted'],
    [{ tools: [], observe: {} }, '$.observe'],
    [{ tools: [], observe: [{ match: 'X' }] }, '$.observe[0].claim'],
    [{ tools: [], observe: [{ match: 'X', claim: 'c', supports_when: '(' }] }, '$.observe[0].supports_when'],
    [{ tools: [], observe: [{ match: 'X', claim: 'c', input: { command: '[' } }] }, '$.observe[0].input.command'],
    [{ tools: [], observe: [{ match: 'X', claim: 'c', input: 'curl' }] }, '$.observe[0].input'],
  ])('refuses %j naming %s', (json, path) => {
    try {
      parseToolMapping(json);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect((e as InvalidArgumentError).code).toBe('EWP_REFUSE_INVALID_ARGUMENT');
      expect((e as InvalidArgumentError).path).toBe(path);
    }
  });
});

describe('mapToolCall', () => {
  it('fills the claim (or proposition) and the action from the first matching rule', () => {
    expect(mapToolCall(mapping, 'mcp__deploy__release', { service: 'api' })).toEqual({
      kind: 'gated',
      subject: { claim: 'api is deployable' },
      action: { id: 'mcp__deploy__release', kind: 'deploy', risk: 'high', reversible: false },
    });
    expect(mapToolCall(mapping, 'Bash', { command: 'ls' })).toMatchObject({ subject: { proposition: 'P-shell-ok' }, action: { id: 'bash:ls' } });
    expect(mapToolCall(mapping, 'Read', {})).toEqual({ kind: 'gated', subject: { proposition: 'P-any' }, action: { id: 'Read' } });
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

describe('observeToolCall', () => {
  it('a response matching supports_when supports the filled claim; one that does not, or a failed call, refutes it', () => {
    expect(observeToolCall(mapping, 'mcp__ops__health', { server: 's1' }, { status: 'ok' }, false)).toEqual([{ claim: 's1 is healthy', supports: true }]);
    expect(observeToolCall(mapping, 'mcp__ops__health', { server: 's1' }, { status: 'down' }, false)).toEqual([{ claim: 's1 is healthy', supports: false }]);
    expect(observeToolCall(mapping, 'mcp__ops__health', { server: 's1' }, 'timeout', true)).toEqual([{ claim: 's1 is healthy', supports: false }]);
  });

  it('without supports_when a call that ran supports; input conditions select the calls; an unfillable claim or another tool observes nothing', () => {
    const curl = { command: 'curl -fsS https://web1/health' };
    expect(observeToolCall(mapping, 'Bash', curl, { stdout: 'anything' }, false)).toEqual([{ claim: 'the health endpoint answers', supports: true }]);
    expect(observeToolCall(mapping, 'Bash', curl, undefined, true)).toEqual([{ claim: 'the health endpoint answers', supports: false }]);
    expect(observeToolCall(mapping, 'Bash', { command: 'ls' }, {}, false)).toEqual([]);
    expect(observeToolCall(mapping, 'Bash', {}, {}, false)).toEqual([]);
    expect(observeToolCall(mapping, 'mcp__ops__health', {}, { status: 'ok' }, false)).toEqual([]);
    expect(observeToolCall(mapping, 'Read', {}, {}, false)).toEqual([]);
  });
});
