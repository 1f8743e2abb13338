/**
 * The many-writer soak, short form: 16 writer processes and 4 readers on one ledger, a writer killed
 * with SIGKILL every few seconds and restarted; afterwards nothing acknowledged is lost, nothing is
 * duplicated, the chain verifies and every reader saw only committed snapshots, never going back.
 * `EWP_SOAK_SECONDS` sets the length (default 30); the long form is `pnpm soak`.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../../ledger/test-support/bundle-from-sources.mjs';
import { runSoak } from '../bench/soak.js';

const SECONDS = Number(process.env.EWP_SOAK_SECONDS ?? 30);
let worker: string;

beforeAll(async () => {
  worker = await bundleWorker(join(import.meta.dirname, '..', 'bench', 'soak-worker.ts'));
}, 60_000);

it(
  `16 writers and 4 readers for ${SECONDS} s with writers killed: nothing lost or duplicated, the chain verifies, readers saw committed snapshots`,
  async () => {
    const report = await runSoak({ worker, schema: `ewp_soak_${randomBytes(4).toString('hex')}`, writers: 16, readers: 4, seconds: SECONDS });
    const { verdict } = report;
    expect(report.writerErrors).toEqual([]);
    expect(report.readerErrors).toEqual([]);
    expect(report.failures).toEqual([]);
    expect(verdict.lost).toEqual([]);
    expect(verdict.duplicated).toEqual([]);
    expect(verdict.badReads).toEqual([]);
    expect(verdict.chain.ok).toBe(true);
    expect(verdict.ok).toBe(true);
    // The run did what it says: writes of every kind acknowledged, writers killed, views read.
    expect(Object.keys(report.acknowledged).sort()).toEqual(['entries', 'extend', 'put', 'put+entry']);
    expect(report.kills).toBeGreaterThan(0);
    expect(report.readerViews).toBeGreaterThan(0);
    expect(verdict.committedUnacknowledged).toBeGreaterThanOrEqual(0);
    expect(verdict.committedUnacknowledged).toBeLessThanOrEqual(report.kills);
  },
  300_000 + SECONDS * 1000,
);
