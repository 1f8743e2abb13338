/** serveInspector over a store that is not a ledger file: a LangGraph BaseStore through @ewp/langchain. */
import { BaseStoreLedger } from '@ewp/langchain';
import { InMemoryStore } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { serveInspector } from '../src/index.js';
import { quickstartViews } from './ledgers.js';

describe('serveInspector over any EvidenceStore', () => {
  it('serves a LangGraph InMemoryStore through BaseStoreLedger, chain and all', async () => {
    const store = new BaseStoreLedger(new InMemoryStore());
    for (const view of quickstartViews()) await store.put(view);
    const inspector = await serveInspector({ store, port: 0, clock: () => new Date('2026-09-23T12:00:00Z'), label: 'LangGraph InMemoryStore' });
    try {
      const page = (await (await fetch(`${inspector.url}api/propositions`)).json()) as { items: { proposition_id: string; warrant: { acceptance: string } }[] };
      expect(page.items).toHaveLength(quickstartViews().length);
      expect(page.items.find((p) => p.proposition_id === 'P-deploys-from-main')?.warrant.acceptance).toBe('ACCEPTED');
      const detail = (await (await fetch(`${inspector.url}api/proposition?id=P-deploys-from-main`)).json()) as { view: { view_id: string } };
      expect(detail.view.view_id).toBe('quickstart-deploy-1');
      expect(((await (await fetch(`${inspector.url}api/chain`)).json()) as { ok: boolean }).ok).toBe(true);
      expect(((await (await fetch(`${inspector.url}api/meta`)).json()) as { label: string }).label).toBe('LangGraph InMemoryStore');
    } finally {
      await inspector.close();
      await store.close();
    }
  });
});
