/** The decisions page: every gate decision recorded in the ledger, oldest first, a page at a time. */
import { useEffect, useState } from 'preact/hooks';
import { type DecisionPage, getJson } from './api.js';
import { ErrorNote } from './badges.js';
import { DecisionTable, holds } from './decisions-panel.js';
import { decisionsHref } from './routes.js';

export function DecisionsPage({ after, ready }: { after: number | undefined; ready: () => void }) {
  const [page, setPage] = useState<DecisionPage | Error | undefined>(undefined);
  useEffect(() => {
    let live = true;
    getJson<DecisionPage>('decisions', { after })
      .then(
        (p) => live && setPage(p),
        (e: Error) => live && setPage(e),
      )
      .finally(ready);
    return () => {
      live = false;
    };
  }, [after]);
  useEffect(() => document.getElementById('main')?.focus({ preventScroll: true }), []);
  return (
    <main id="main" tabIndex={-1}>
      <p>
        <a href="#/">All propositions</a>
      </p>
      <h1>Recorded decisions</h1>
      <p class="muted">
        Gate decisions recorded in the ledger's audit chain (by every gate: AI SDK, LangChain, MCP, the CLI), oldest first
        {after === undefined ? '' : `, after chain #${after}`}. "A later use now" applies the recovery gate as it stands: a decision whose evidence changed or
        was retracted since is held until re-evaluated.
      </p>
      {page === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : page instanceof Error ? (
        <ErrorNote error={page} />
      ) : page.items.length === 0 ? (
        <p data-testid="no-decisions">No recorded decision{after === undefined ? ' in this ledger' : ' after this point'}.</p>
      ) : (
        <>
          <p aria-live="polite" class="muted" data-testid="decisions-summary">
            {page.items.length} decision{page.items.length === 1 ? '' : 's'}, {page.items.filter((d) => holds(d.later_use)).length} held now until re-evaluated
            {page.has_more ? ' (more on the next page)' : ''}.
          </p>
          <DecisionTable items={page.items} label="Recorded decisions, oldest first" />
        </>
      )}
      <nav class="pager" aria-label="Pages">
        {after === undefined ? null : <a href={decisionsHref()}>First page</a>}
        {page !== undefined && !(page instanceof Error) && page.has_more ? <a href={decisionsHref(page.next_cursor ?? undefined)}>Next page</a> : null}
      </nav>
    </main>
  );
}
