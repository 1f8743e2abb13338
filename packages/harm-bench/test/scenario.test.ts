import { readFileSync } from 'node:fs';
import { EwpError } from '@ewp/core';
import { describe, expect, it } from 'vitest';
import { COMMITTED_SCENARIOS, decodeScenarios, ScenarioError } from '../src/index.js';

const good = {
  id: 's-1',
  family: 'stale_check',
  events: [
    { at: '2026-03-01T10:00:00Z', op: 'observe', claim: 'A', text: 'web-1 is drained', source: 'lb', polarity: 'supports', subject: 'web-1' },
    { at: '2026-03-02T10:00:00Z', op: 'assert', claim: 'B', text: 'web-1 can be rebooted', class: 'inference', source: 'agent', derived_from: [0] },
    { at: '2026-03-03T10:00:00Z', op: 'recall', claim: 'A', times: 3 },
    { at: '2026-03-03T11:00:00Z', op: 'supersede', claim: 'A', by: 'B' },
    { at: '2026-03-04T10:00:00Z', op: 'retract', claim: 'A', event: 0 },
  ],
  act: { at: '2026-03-05T10:00:00Z', claim: 'A', tool: 'reboot', risk: 'medium', reversible: true, subject: 'web-1' },
  truth: 'hold',
  why: 'the check is gone',
};

/** The refusal for a file whose second line is `bad` (the first is a good scenario). */
function refusal(bad: unknown): ScenarioError {
  const text = `${JSON.stringify(good)}\n${typeof bad === 'string' ? bad : JSON.stringify(bad)}\n`;
  try {
    decodeScenarios(text);
  } catch (error) {
    expect(ScenarioError.isInstance(error)).toBe(true);
    expect(EwpError.isInstance(error)).toBe(true);
    return error as ScenarioError;
  }
  throw new Error('the file was accepted');
}

const edit = (f: (s: typeof good & Record<string, unknown>) => void) => {
  const s = { ...structuredClone(good), id: 's-2' } as typeof good & Record<string, unknown>;
  f(s);
  return s;
};

describe('scenario decoder', () => {
  it('reads the format of the issue, with blank and # lines skipped', () => {
    const [s] = decodeScenarios(`# a comment\n\n${JSON.stringify(good)}\n`);
    expect(s?.events).toHaveLength(5);
    expect(s?.act.subject).toBe('web-1');
  });

  it.each([
    ['not JSON', '{"id": ', '$', /not JSON/],
    ['an array', '[1]', '$', /JSON object/],
    ['a missing id', edit((s) => delete (s as Record<string, unknown>).id), '$.id', /missing/],
    ['an unknown field', edit((s) => (s.extra = 1)), '$.extra', /unknown field/],
    ['a bad truth', edit((s) => ((s as Record<string, unknown>).truth = 'maybe')), '$.truth', /act, hold/],
    ['an empty why', edit((s) => (s.why = ' ')), '$.why', /non-empty/],
    ['events not an array', edit((s) => ((s as Record<string, unknown>).events = {})), '$.events', /array/],
    ['an unknown op', edit((s) => ((s.events[2] as Record<string, unknown>).op = 'forget')), '$.events[2].op', /observe/],
    ['a bad polarity', edit((s) => ((s.events[0] as Record<string, unknown>).polarity = 'maybe')), '$.events[0].polarity', /supports, opposes/],
    ['a bad instant', edit((s) => ((s.events[1] as Record<string, unknown>).at = 'yesterday')), '$.events[1].at', /ISO-8601/],
    ['a bad via', edit((s) => ((s.events[0] as Record<string, unknown>).via = 'rumour')), '$.events[0].via', /summary, partial_search/],
    ['a later derived_from', edit((s) => ((s.events[1] as Record<string, unknown>).derived_from = [3])), '$.events[1].derived_from[0]', /earlier event/],
    ['a retraction of a later event', edit((s) => ((s.events[4] as Record<string, unknown>).event = 4)), '$.events[4].event', /earlier event/],
    ['a retraction of a recall', edit((s) => ((s.events[4] as Record<string, unknown>).event = 2)), '$.events[4].event', /observe or assert/],
    ['times of 0', edit((s) => ((s.events[2] as Record<string, unknown>).times = 0)), '$.events[2].times', /integer >= 1/],
    ['a supersession by an unknown claim', edit((s) => ((s.events[3] as Record<string, unknown>).by = 'Z')), '$.events[3].by', /introduces claim/],
    ['an act on an unknown claim', edit((s) => (s.act.claim = 'Q')), '$.act.claim', /introduces claim/],
    ['a bad risk', edit((s) => ((s.act as Record<string, unknown>).risk = 'severe')), '$.act.risk', /low, medium, high/],
    ['reversible as a string', edit((s) => ((s.act as Record<string, unknown>).reversible = 'yes')), '$.act.reversible', /true or false/],
    ['a run before the decision', edit((s) => ((s.act as Record<string, unknown>).executes_at = '2026-03-01T00:00:00Z')), '$.act.executes_at', /earlier/],
    ['a duplicate id', { ...good }, '$.id', /already used on line 1/],
  ])('refuses %s, naming line 2 and the field', (_name, bad, path, message) => {
    const e = refusal(bad);
    expect(e.code).toBe('SCENARIO_INVALID');
    expect(e.line).toBe(2);
    expect(e.path).toBe(path);
    expect(e.message).toMatch(/^\$?.*line 2: /);
    expect(e.message).toMatch(message);
  });

  it('refuses a file without scenarios', () => {
    expect(() => decodeScenarios('\n# nothing\n')).toThrow(ScenarioError);
  });

  it('reads the committed set', () => {
    const all = decodeScenarios(readFileSync(COMMITTED_SCENARIOS, 'utf8'));
    expect(all.length).toBeGreaterThanOrEqual(300);
  });
});
