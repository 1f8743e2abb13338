/// <reference lib="dom" />
/**
 * The inspector in a real browser (headless Debian chromium): the quick-start ledger, search,
 * keyboard, time travel, the gate, the lineage graph, a tampered ledger, a memory of the evidence
 * layer with its recorded decisions, accessibility.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { EvidenceView } from '@ewp/core';
import { JsonlSalienceStore, MemoryLedger } from '@ewp/memory';
import { SqliteEvidenceStore } from '@ewp/sqlite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Inspector, serveInspector } from '../src/index.js';
import { findChromium, launch, OUTPUT_DIR, watchErrors } from './browser.js';
import { packFixture, quickstartViews, sqliteLedger } from './ledgers.js';
import { memoryStory } from './memory-story.js';

const chromiumBinary = findChromium();
if ('missing' in chromiumBinary) console.warn(`@ewp/inspect browser tests skipped: ${chromiumBinary.missing}`);
const NOW = '2026-09-23T12:00:00Z';
/** After the memory story of test/memory-story.ts was written. */
const MEMORY_NOW = '2026-12-02T12:00:00Z';

describe.skipIf('missing' in chromiumBinary)('ewp inspect in chromium', () => {
  let browser: Browser;
  const opened: { inspector: Inspector; store: SqliteEvidenceStore }[] = [];
  let page: Page;
  let errors: string[];

  async function serve(views: readonly unknown[], tamper?: (s: SqliteEvidenceStore) => void): Promise<Inspector> {
    const { store } = await sqliteLedger(views, tamper);
    const inspector = await serveInspector({ store, port: 0, clock: () => new Date(NOW), label: 'test ledger' });
    opened.push({ inspector, store });
    return inspector;
  }

  beforeAll(async () => {
    browser = await launch((chromiumBinary as { path: string }).path);
  });
  afterAll(async () => {
    await browser?.close();
    for (const { inspector, store } of opened) {
      await inspector.close();
      await store.close();
    }
  });
  const newPage = async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
    return page;
  };
  afterEach(async () => {
    expect(errors, 'no console errors, page errors or outside requests').toEqual([]);
    await page?.close();
  });

  it('opens the quick-start ledger: every proposition, newest first, with its five axes', async () => {
    const inspector = await serve(quickstartViews());
    await newPage();
    await page.goto(inspector.url);
    const rows = page.locator('a.row');
    await expect.poll(() => rows.count()).toBe(3);
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-proposition')));
    expect(ids).toEqual(
      quickstartViews()
        .map((v) => (v as { proposition_id: string }).proposition_id)
        .reverse(),
    );
    const deploys = page.locator('a.row[data-proposition="P-deploys-from-main"]');
    for (const axis of ['acceptance', 'conflict', 'verification', 'currency', 'sufficiency']) {
      await expect.poll(() => deploys.locator(`[data-axis="${axis}"]`).count()).toBe(1);
    }
    expect(await deploys.locator('[data-axis="acceptance"]').getAttribute('data-value')).toBe('ACCEPTED');
    expect(await deploys.textContent()).toContain('1 snapshot');
    await expect.poll(() => page.getByTestId('chain-status').textContent()).toContain('audit chain OK');
    await page.screenshot({ path: `${OUTPUT_DIR}list.png`, fullPage: true });
  });

  it('shows every committed adapter loss report with its counts in words', async () => {
    const committed = JSON.parse(readFileSync(new URL('../../../docs/loss-reports.json', import.meta.url), 'utf8')) as {
      adapters: { adapter: string; fixtures: number; losses: Record<string, Record<string, { observations: number; fixtures: number }>> }[];
    };
    expect(committed.adapters.length).toBeGreaterThan(0);
    const { store } = await sqliteLedger(quickstartViews());
    for (const report of committed.adapters) {
      const inspector = await serveInspector({ store, port: 0, clock: () => new Date(NOW), label: report.adapter, adapter: report.adapter });
      await newPage();
      await page.goto(inspector.url);
      const trust = page.getByTestId('loss-report');
      await expect.poll(() => trust.textContent()).toContain(`conformance over ${report.fixtures} fixtures`);
      const text = (await trust.textContent()) ?? '';
      expect(text, report.adapter).not.toContain('[object');
      for (const [cls, fields] of Object.entries(report.losses)) {
        expect(text).toContain(cls);
        for (const [field, count] of Object.entries(fields)) expect(text).toContain(`${field}: ${count.observations} observation`);
      }
      // The audit chain answered: closing the page earlier would abort that request.
      await expect.poll(() => page.getByTestId('chain-status').count()).toBe(1);
      await page.close();
      await inspector.close();
    }
    await store.close();
  });

  it('finds a proposition by its assertion text', async () => {
    const inspector = await serve(quickstartViews());
    await newPage();
    await page.goto(inspector.url);
    await page.getByLabel('Search propositions (id or assertion text)').fill('postgresql');
    await expect.poll(() => page.locator('a.row').evaluateAll((els) => els.map((e) => e.getAttribute('data-proposition')))).toEqual(['P-prod-db-version']);
    await page.getByLabel('Search propositions (id or assertion text)').fill('no such thing');
    await expect.poll(() => page.getByTestId('list-summary').textContent()).toBe('No proposition matches.');
  });

  it('moves through the list with the keyboard and opens a proposition with Enter', async () => {
    const inspector = await serve(quickstartViews());
    await newPage();
    await page.goto(inspector.url);
    await expect.poll(() => page.locator('a.row').count()).toBe(3);
    await page.getByLabel('Search propositions (id or assertion text)').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-proposition'))).toBe('P-deploys-from-main');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('proposition-title').textContent()).toBe('P-deploys-from-main');
    // Tabs follow the arrow keys too.
    await page.locator('#tab-warrant').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-gate');
    expect(await page.locator('#tab-gate').getAttribute('aria-selected')).toBe('true');
  });

  it('time travel: after its freshness window P-deploys-from-main goes STALE, and the badge and the gate table change', async () => {
    const inspector = await serve(quickstartViews());
    await newPage();
    await page.goto(`${inspector.url}#/p/P-deploys-from-main`);
    const currency = page.getByTestId('axes').locator('[data-axis="currency"]');
    await expect.poll(() => currency.getAttribute('data-value')).toBe('CURRENT');
    await page.locator('#tab-gate').click();
    const highIrreversible = page.locator('tr[data-risk="high"][data-reversible="false"] [data-decision]').first();
    const mediumReversible = page.locator('tr[data-risk="medium"][data-reversible="true"] [data-decision]').first();
    await expect.poll(() => highIrreversible.getAttribute('data-decision')).toBe('MAY_ACT');
    await page.screenshot({ path: `${OUTPUT_DIR}gate-current.png`, fullPage: true });
    // The slider, by keyboard: End is the far end of the time line, past every freshness window.
    await page.locator('#t-slider').focus();
    await page.keyboard.press('End');
    await expect.poll(() => currency.getAttribute('data-value')).toBe('STALE');
    await expect.poll(() => highIrreversible.getAttribute('data-decision')).toBe('DENY');
    await expect.poll(() => mediumReversible.getAttribute('data-decision')).toBe('REQUIRE_CONFIRMATION');
    // What would change it comes from the rules: a fresh external check lifts the medium-risk cell.
    await expect
      .poll(() => page.locator('tr[data-risk="medium"][data-reversible="true"]').textContent())
      .toMatch(/MAY_ACT with a supporting EXTERNAL check .* within the freshness window/);
    await page.screenshot({ path: `${OUTPUT_DIR}gate-stale.png`, fullPage: true });
    // Arrow keys step back a day at a time; typing a T evaluates exactly there.
    const before = await page.getByTestId('t-value').textContent();
    await page.locator('#t-slider').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('t-value').textContent()).not.toBe(before);
    await page.getByLabel('T (ISO 8601)').fill('2027-09-20T09:00:00Z');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect.poll(() => currency.getAttribute('data-value')).toBe('CURRENT');
    await page.getByLabel('T (ISO 8601)').fill('2027-09-21T09:00:00Z');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect.poll(() => currency.getAttribute('data-value')).toBe('STALE');
  });

  it('explains the axes in words and lists records with their origins and freshness', async () => {
    const inspector = await serve(quickstartViews());
    await newPage();
    await page.goto(`${inspector.url}#/p/P-prod-db-version`);
    await expect.poll(() => page.locator('.why').textContent()).toContain('conflict.implied_polarity');
    expect(await page.locator('.why').textContent()).toContain('both support and oppose');
    await page.screenshot({ path: `${OUTPUT_DIR}why.png`, fullPage: true });
    await page.locator('#tab-records').click();
    await expect.poll(() => page.locator('[data-origin-trust="endogenous"]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-origin-trust="trusted"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#record-k-psql-version').textContent()).toContain('fresh');
    await page.screenshot({ path: `${OUTPUT_DIR}records.png`, fullPage: true });
  });

  it('draws a node per record of a pack fixture, and a node opens its record', async () => {
    const fixture = packFixture('07-lineage');
    const inspector = await serve([fixture]);
    await newPage();
    await page.goto(`${inspector.url}#/p/${encodeURIComponent(fixture.proposition_id as string)}`);
    await page.locator('#tab-graph').click();
    const view = fixture as unknown as EvidenceView;
    const records = [
      ...view.assertions.map((a) => a.assertion_id),
      ...(view.evidence ?? []).map((e) => e.evidence_id),
      ...(view.checks ?? []).map((c) => c.check_id),
    ];
    expect(records.length).toBeGreaterThan(1);
    const nodes = page.getByTestId('lineage-graph').locator('[data-record]');
    await expect.poll(() => nodes.count()).toBe(records.length);
    expect((await nodes.evaluateAll((els) => els.map((e) => e.getAttribute('data-record')))).sort()).toEqual(records.slice().sort());
    // Every node sits inside the drawing.
    const box = await page.getByTestId('lineage-graph').boundingBox();
    for (const b of await nodes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { width: number; height: number }))) {
      expect(b.width).toBeGreaterThan(0);
      expect(b.height).toBeGreaterThan(0);
    }
    expect(box?.width).toBeGreaterThan(0);
    await page.screenshot({ path: `${OUTPUT_DIR}graph.png`, fullPage: true });
    await nodes.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#tab-records').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator('tr.focused').getAttribute('id')).toBe(`record-${records[0]}`);
  });

  it('shows the snapshots, their axes at T and the difference of two', async () => {
    const base = packFixture('01-reinforcement') as unknown as EvidenceView & Record<string, unknown>;
    const { view_id: _v, ...withoutId } = base as unknown as Record<string, unknown>;
    const second = { ...withoutId, view_id: 'second', omitted_sources: ['src-missing'] };
    const inspector = await serve([base, second]);
    await newPage();
    await page.goto(`${inspector.url}#/p/${encodeURIComponent(base.proposition_id)}`);
    await page.locator('#tab-timeline').click();
    await expect.poll(() => page.getByTestId('timeline').locator('tbody tr').count()).toBe(2);
    await expect
      .poll(() => page.getByTestId('timeline').locator('tbody tr').last().locator('[data-axis="sufficiency"]').getAttribute('data-value'))
      .toBe('DEGRADED');
    await expect.poll(() => page.getByTestId('diff').textContent()).toContain('omitted_sources: added src-missing');
    // The axes over T: at least the moment the first record becomes available; a click moves T there.
    const moments = page.getByTestId('axes-over-time').locator('tbody tr');
    await expect.poll(() => moments.count()).toBeGreaterThan(0);
    const first = (await moments.first().locator('button').textContent()) ?? '';
    await moments.first().locator('button').click();
    await expect.poll(() => page.getByTestId('t-value').textContent()).toBe(`T = ${first}`);
    await page.screenshot({ path: `${OUTPUT_DIR}snapshots.png`, fullPage: true });
  });

  it('shows the audit failure of a tampered ledger', async () => {
    const inspector = await serve(quickstartViews(), (store) => {
      const { event } = store.db.prepare('SELECT event FROM ewp_chain WHERE idx = 1').get() as { event: string };
      store.db.prepare('UPDATE ewp_chain SET event = ? WHERE idx = 1').run(event.replace('quickstart', 'quickstarT'));
    });
    await newPage();
    await page.goto(inspector.url);
    const status = page.getByTestId('chain-status');
    await expect.poll(() => status.textContent()).toContain('audit chain FAILED');
    expect(await status.getAttribute('role')).toBe('alert');
    expect(await status.textContent()).toContain('at entry 1');
    await page.screenshot({ path: `${OUTPUT_DIR}tampered.png`, fullPage: true });
  });

  it('shows a memory of the evidence layer beside its warrant, and the decisions recorded on it', async () => {
    const story = await memoryStory();
    const store = new SqliteEvidenceStore(story.file, { readOnly: true });
    const inspector = await serveInspector({ store, port: 0, clock: () => new Date(MEMORY_NOW), label: 'memory ledger', memory: { salience: story.salience } });
    opened.push({ inspector, store });
    const id = `mem:${story.hypothesis}`;
    // What the library says about the same ledger, to compare the page with.
    const library = new MemoryLedger(store, {
      salience: new JsonlSalienceStore(story.salience, { readOnly: true }),
      now: () => new Date(MEMORY_NOW).toISOString(),
    });
    const shown = await library.show(story.hypothesis);
    await newPage();
    await page.goto(`${inspector.url}#/p/${encodeURIComponent(id)}`);
    const panel = page.getByTestId('memory-panel');
    await expect.poll(() => panel.count()).toBe(1);
    // Beside the warrant, not inside it: the axes are their own line, the memory its own section.
    expect(await page.getByTestId('axes').locator('[data-testid="memory-panel"]').count()).toBe(0);
    expect(await panel.locator('[data-axis]').count()).toBe(0);
    expect(await panel.locator('[data-class]').first().textContent()).toBe('hypothesis');
    expect(await page.getByTestId('memory-confidence-value').textContent()).toBe(String(shown.confidence));
    expect(await page.getByTestId('memory-supports').textContent()).toBe(String(shown.support_count));
    expect(await page.getByTestId('memory-sources').textContent()).toBe(String(shown.distinct_sources));
    expect(await page.getByTestId('memory-echoes').textContent()).toBe('1');
    // Salience: labelled as not evidence, with its recall count, energy and importance.
    const salience = page.getByTestId('memory-salience');
    expect(await salience.locator('h3').textContent()).toBe('Salience (recall) — not evidence');
    expect(await page.getByTestId('memory-recalls').textContent()).toBe(String(shown.salience.recall_count));
    expect(await page.getByTestId('memory-energy').textContent()).toContain(String(shown.salience.energy));
    expect(await page.getByTestId('memory-importance').textContent()).toBe('1');
    expect(await page.getByTestId('memory-promoted').textContent()).toBe('yes');
    // The gate history: refused with no evidence, then allowed once an independent source supported it.
    const gateRows = page.getByTestId('memory-gate').locator('tbody tr');
    expect(await gateRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-gate-decision')))).toEqual(['blocked', 'allowed']);
    expect(await gateRows.first().textContent()).toContain('promotion_blocked:no_evidence');
    // Links: the observation is independent, its paraphrase from the same source an echo.
    const independent = page.locator(`[data-testid="memory-links"] tr[data-link="${story.observation}"]`);
    const echo = page.locator(`[data-testid="memory-links"] tr[data-link="${story.echo}"]`);
    expect(await independent.getAttribute('data-echo')).toBe('false');
    expect(await independent.textContent()).toContain('independent');
    expect(await echo.getAttribute('data-echo')).toBe('true');
    expect(await echo.textContent()).toContain(`echo of sup:${story.observation}: adds no source`);
    await page.screenshot({ path: `${OUTPUT_DIR}memory.png`, fullPage: true });
    // Time travel moves confidence too: before the support was observed, nothing supports it.
    await page.getByLabel('T (ISO 8601)').fill('2026-12-01T10:02:00Z');
    await page.getByRole('button', { name: 'Evaluate' }).click();
    await expect.poll(() => page.getByTestId('memory-confidence-value').textContent()).toBe('0');
    await expect.poll(() => page.getByTestId('memory-supports').textContent()).toBe('0');

    // The decisions that consulted it: the first run (a later use now held), the second (held when decided).
    await page.locator('#tab-decisions').click();
    const rows = page.getByTestId('decision-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(
      await rows.evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-decision-id'), r.getAttribute('data-held'), r.getAttribute('data-held-now')])),
    ).toEqual([
      [story.decisions[0], 'false', 'true'],
      [story.decisions[1], 'true', 'false'],
    ]);
    expect(await rows.first().locator('[data-decision]').first().getAttribute('data-decision')).toBe('MAY_ACT');
    expect(await rows.first().textContent()).toContain(`DENY until re-evaluated: ${id} (evidence_refuted)`);
    expect(await rows.last().textContent()).toContain('mayAct alone: MAY_ACT');
    expect(await page.getByTestId('held-banner').textContent()).toContain('held until re-evaluated');
    expect(await page.getByTestId('retracted').textContent()).toContain(`evidence:sup:${story.observation}`);
    expect(await page.getByTestId('recovery-status').textContent()).toContain(story.planId);
    await page.screenshot({ path: `${OUTPUT_DIR}decisions-tab.png`, fullPage: true });

    // Every decision of the ledger, listed from the header; a consulted proposition links back.
    await page.getByRole('link', { name: 'Decisions', exact: true }).click();
    await expect.poll(() => page.getByTestId('decisions-summary').textContent()).toBe('2 decisions, 1 held now until re-evaluated.');
    await page
      .getByTestId('decision-table')
      .locator(`a[href="#/p/${encodeURIComponent(id)}"]`)
      .first()
      .click();
    await expect.poll(() => page.getByTestId('proposition-title').textContent()).toBe(id);
    // Its memory panel is back (its request answered): leaving the page earlier would abort that request.
    await expect.poll(() => page.getByTestId('memory-panel').count()).toBe(1);

    // A proposition that is no memory has no memory panel, and says no decision consulted it.
    const other = await serve(quickstartViews());
    await page.goto(`${other.url}#/p/P-deploys-from-main`);
    await expect.poll(() => page.getByTestId('axes').count()).toBe(1);
    await page.locator('#tab-decisions').click();
    await expect.poll(() => page.getByTestId('no-decisions').count()).toBe(1);
    expect(await page.getByTestId('memory-panel').count()).toBe(0);
  });

  it('has no serious or critical accessibility violations (axe-core) on any page', async () => {
    const inspector = await serve([...quickstartViews(), packFixture('07-lineage')]);
    const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await newPage();
    const audit = async (where: string) => {
      // Injected through the DevTools protocol: the page's CSP forbids inline scripts, as it should.
      await page.evaluate(axeSource);
      const result = (await page.evaluate(() =>
        (window as unknown as { axe: { run: (o: unknown) => Promise<unknown> } }).axe.run({ resultTypes: ['violations'] }),
      )) as {
        violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
      };
      const bad = result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${where}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(bad).toEqual([]);
    };
    await page.goto(inspector.url);
    await expect.poll(() => page.locator('a.row').count()).toBe(4);
    await audit('list');
    await page.goto(`${inspector.url}#/p/P-deploys-from-main`);
    for (const tab of ['warrant', 'gate', 'records', 'timeline', 'graph', 'decisions']) {
      await page.locator(`#tab-${tab}`).click();
      await expect.poll(() => page.locator(`#panel-${tab}`).count()).toBe(1);
      await page.waitForTimeout(100);
      await audit(tab);
    }
    // The decisions tab answered (nothing consulted this proposition) before the page is left.
    await expect.poll(() => page.getByTestId('no-decisions').count()).toBe(1);
    // A memory with its gate history and recorded decisions, and the decision list.
    const story = await memoryStory();
    const store = new SqliteEvidenceStore(story.file, { readOnly: true });
    const memory = await serveInspector({ store, port: 0, clock: () => new Date(MEMORY_NOW), memory: { salience: story.salience } });
    opened.push({ inspector: memory, store });
    await page.goto(`${memory.url}#/p/${encodeURIComponent(`mem:${story.hypothesis}`)}`);
    await expect.poll(() => page.getByTestId('memory-panel').count()).toBe(1);
    await audit('memory');
    await page.locator('#tab-decisions').click();
    await expect.poll(() => page.getByTestId('decision-table').count()).toBe(1);
    await audit('decisions tab');
    await page.goto(`${memory.url}#/decisions`);
    await expect.poll(() => page.getByTestId('decisions-summary').count()).toBe(1);
    await audit('decision list');
  });
});
