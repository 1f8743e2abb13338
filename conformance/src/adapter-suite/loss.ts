/**
 * Loss classes (docs/spec/loss-classes.md) and the expected-loss list every adapter keeps. The suite fails on a
 * loss that is not listed and on a listed loss that no longer happens, so the list only shrinks.
 */

import type { ExpectedLoss, ExpectedLossFile, LossClass } from '@ewp/core';

export type { ExpectedLoss, ExpectedLossFile, LossClass };

export const LOSS_CLASSES: readonly LossClass[] = ['INGEST_LOSS', 'ADAPTER_MAP_LOSS', 'WARRANT_MISMATCH', 'RETRIEVAL_LOSS', 'EXPECTED_DIVERGENCE'];

/** One difference the suite observed. `field` is generalised (`assertions[*].asserted_by`). */
export interface ObservedLoss {
  class: LossClass;
  fixture: string;
  field: string;
  /** Specific record ids and values, for humans. */
  detail: string;
}

/** Does the expected entry cover the observed loss? */
export function lossMatches(expected: ExpectedLoss, observed: ObservedLoss): boolean {
  return expected.class === observed.class && expected.field === observed.field && (expected.fixture === '*' || expected.fixture === observed.fixture);
}

/** Observations never fail the suite; every other class must be listed. */
export function isObservation(loss: { class: LossClass }): boolean {
  return loss.class === 'EXPECTED_DIVERGENCE';
}

/** Checks an expected-loss file's shape; throws a TypeError naming the bad field. */
export function parseExpectedLossFile(value: unknown, where = 'expected-loss'): ExpectedLossFile {
  const fail = (path: string, what: string): never => {
    throw new TypeError(`${where}: ${path} ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('$', 'must be an object');
  const file = value as Record<string, unknown>;
  if (typeof file.adapter !== 'string' || file.adapter === '') fail('$.adapter', 'must be a non-empty string');
  if (!Array.isArray(file.losses)) fail('$.losses', 'must be an array');
  const losses = (file.losses as unknown[]).map((entry, i) => {
    const path = `$.losses[${i}]`;
    if (typeof entry !== 'object' || entry === null) fail(path, 'must be an object');
    const e = entry as Record<string, unknown>;
    if (!LOSS_CLASSES.includes(e.class as LossClass)) fail(`${path}.class`, `must be one of ${LOSS_CLASSES.join(', ')}`);
    for (const key of ['fixture', 'field', 'reason'] as const) {
      if (typeof e[key] !== 'string' || e[key] === '') fail(`${path}.${key}`, 'must be a non-empty string');
    }
    return { class: e.class as LossClass, fixture: e.fixture as string, field: e.field as string, reason: e.reason as string };
  });
  return { adapter: file.adapter as string, losses };
}
