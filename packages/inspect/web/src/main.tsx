/** The inspector page: the proposition list, one proposition, the trust panel. Hash routes. */
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type Chain, getJson, type Meta, type PropositionPage } from './api.js';
import { AxisBadges, ErrorNote } from './badges.js';
import { lossCountWords } from './loss.js';
import { DecisionsPage } from './decisions-page.js';
import { PropositionPage as PropositionView } from './proposition.js';
import { decisionsHref, propositionHref } from './routes.js';
import './style.css';

type Route = { page: 'list'; query: string; offset: number } | { page: 'proposition'; id: string } | { page: 'decisions'; after: number | undefined };

function readRoute(): Route {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = hash.split('?');
  if (path.startsWith('/p/')) return { page: 'proposition', id: decodeURIComponent(path.slice(3)) };
  const params = new URLSearchParams(search);
  if (path === '/decisions') {
    const after = params.get('after');
    return { page: 'decisions', after: after !== null && /^\d{1,9}$/.test(after) ? Number(after) : undefined };
  }
  return { page: 'list', query: params.get('q') ?? '', offset: Number(params.get('offset') ?? 0) || 0 };
}

function listHref(query: string, offset: number): string {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  if (offset) params.set('offset', String(offset));
  const s = params.toString();
  return `#/${s ? `?${s}` : ''}`;
}

/** The audit chain and the adapter loss report: can this ledger be trusted as a record? */
export function TrustPanel({ meta, chain, verify }: { meta: Meta | undefined; chain: Chain | Error | undefined; verify: () => void }) {
  return (
    <section class="trust" aria-labelledby="trust-title">
      <h2 id="trust-title">Trust</h2>
      {chain === undefined ? (
        <p>Verifying the audit chain…</p>
      ) : chain instanceof Error ? (
        <ErrorNote error={chain} />
      ) : chain.ok ? (
        <p class="chain-ok" data-testid="chain-status">
          <span class="badge good">audit chain OK</span> {chain.length} entries, head <code>{chain.head.slice(0, 16)}…</code>, verified at {chain.verified_at}{' '}
          <button type="button" onClick={verify}>
            Verify again
          </button>
        </p>
      ) : (
        <p class="chain-bad" role="alert" data-testid="chain-status">
          <span class="badge bad">audit chain FAILED</span> at entry {chain.firstBadIndex} of {chain.length}: {chain.reason}
          {chain.detail ? ` (${chain.detail})` : ''}, verified at {chain.verified_at}. The ledger was changed outside its writer; do not trust what it shows.
        </p>
      )}
      {meta === undefined ? null : meta.loss.adapter === null ? (
        <p>
          Native ledger: no adapter sits between the agent's memory and this store, so no adapter loss applies. Measured loss reports exist for{' '}
          {meta.loss.covered.join(', ') || 'no adapter'}.
        </p>
      ) : meta.loss.report === null ? (
        <p>
          Adapter <code>{meta.loss.adapter}</code>: no measured loss report is shipped for it (covered: {meta.loss.covered.join(', ')}).
        </p>
      ) : (
        <div data-testid="loss-report">
          <p>
            Adapter <code>{meta.loss.adapter}</code>: conformance over {meta.loss.report.fixtures} fixtures{' '}
            <span class={`badge ${meta.loss.report.ok ? 'good' : 'bad'}`}>{meta.loss.report.ok ? 'as expected' : 'unexpected loss'}</span>
          </p>
          <ul>
            {Object.entries(meta.loss.report.losses).map(([cls, fields]) => (
              <li key={cls}>
                {cls}:{' '}
                {Object.entries(fields)
                  .map(([field, count]) => lossCountWords(field, count))
                  .join('; ')}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

interface ListPageProps {
  query: string;
  offset: number;
  meta: Meta | undefined;
  chain: Chain | Error | undefined;
  ready: () => void;
  verify: () => void;
}

function ListPage({ query, offset, meta, chain, ready, verify }: ListPageProps) {
  const [text, setText] = useState(query);
  const [page, setPage] = useState<PropositionPage | Error | undefined>(undefined);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => setText(query), [query]);
  useEffect(() => {
    let live = true;
    getJson<PropositionPage>('propositions', { q: query || undefined, offset, limit: 50 })
      .then(
        (p) => live && setPage(p),
        (e: Error) => live && setPage(e),
      )
      .finally(ready);
    return () => {
      live = false;
    };
  }, [query, offset]);
  // Typing searches after a short pause; the query lives in the URL so Back works.
  useEffect(() => {
    if (text === query) return;
    const timer = setTimeout(() => location.replace(listHref(text, 0)), 200);
    return () => clearTimeout(timer);
  }, [text, query]);
  const rows = () => [...(list.current?.querySelectorAll<HTMLAnchorElement>('a.row') ?? [])];
  const onListKey = (event: KeyboardEvent) => {
    const all = rows();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? Math.min(at + 1, all.length - 1) : at - 1;
      if (next < 0) document.getElementById('search')?.focus();
      else all[next]?.focus();
    }
  };
  const onSearchKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      rows()[0]?.focus();
    }
  };
  return (
    <main id="main" tabIndex={-1}>
      <h1>Propositions</h1>
      <TrustPanel meta={meta} chain={chain} verify={verify} />
      <form
        class="search"
        onSubmit={(e) => {
          e.preventDefault();
          location.replace(listHref(text, 0));
        }}
      >
        <label for="search">Search propositions (id or assertion text)</label>
        <input
          id="search"
          type="search"
          value={text}
          autocomplete="off"
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
          onKeyDown={onSearchKey}
        />
      </form>
      {page === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : page instanceof Error ? (
        <ErrorNote error={page} />
      ) : (
        <>
          <p aria-live="polite" class="muted" data-testid="list-summary">
            {page.items.length === 0
              ? 'No proposition matches.'
              : `Showing ${page.offset + 1}–${page.offset + page.items.length}${page.has_more ? ' (more on the next page)' : ''}, newest first; axes at ${page.evaluated_at}. ↑/↓ move, Enter opens.`}
          </p>
          <ol class="rows" ref={list} onKeyDown={onListKey} aria-label="Propositions, newest first">
            {page.items.map((row) => (
              <li key={row.proposition_id}>
                <a class="row" href={propositionHref(row.proposition_id)} data-proposition={row.proposition_id}>
                  <span class="row-id">{row.proposition_id}</span>
                  <span class="row-text">{row.assertions[0] ?? '(no assertion text)'}</span>
                  <span class="row-meta">
                    {'error' in row.warrant ? <span class="badge bad">{row.warrant.error}</span> : <AxisBadges axes={row.warrant} />}
                    <span class="muted">
                      {row.snapshots} snapshot{row.snapshots === 1 ? '' : 's'}
                    </span>
                  </span>
                </a>
              </li>
            ))}
          </ol>
          <nav class="pager" aria-label="Pages">
            {page.offset > 0 ? <a href={listHref(query, Math.max(0, page.offset - page.limit))}>Previous page</a> : null}
            {page.next_cursor !== null ? <a href={listHref(query, page.next_cursor)}>Next page</a> : null}
          </nav>
        </>
      )}
    </main>
  );
}

function App() {
  const [route, setRoute] = useState<Route>(readRoute);
  const [meta, setMeta] = useState<Meta | undefined>(undefined);
  const [chain, setChain] = useState<Chain | Error | undefined>(undefined);
  const [contentShown, setContentShown] = useState(false);
  useEffect(() => {
    const onHash = () => setRoute(readRoute());
    addEventListener('hashchange', onHash);
    getJson<Meta>('meta').then(setMeta, () => undefined);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  // Verifying the whole audit chain reads every row: it starts once the content is on screen,
  // so a large ledger does not hold the first render back.
  useEffect(() => {
    if (contentShown) getJson<Chain>('chain').then(setChain, (e: Error) => setChain(e));
  }, [contentShown]);
  const verify = () => {
    setChain(undefined);
    getJson<Chain>('chain', { fresh: 1 }).then(setChain, (e: Error) => setChain(e));
  };
  const ready = () => setContentShown(true);
  return (
    <>
      {/* A button, not a #main link: the hash is the page's route. */}
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header class="top">
        <a href="#/" class="brand">
          ewp inspect
        </a>
        <a href={decisionsHref()}>Decisions</a>
        <span class="muted">{meta ? `${meta.label} · ${meta.protocol_version} · policy ${meta.policy.policy_id} · read-only` : 'read-only'}</span>
        {chain !== undefined && !(chain instanceof Error) && !chain.ok ? <span class="badge bad">audit chain FAILED</span> : null}
      </header>
      {route.page === 'list' ? (
        <ListPage query={route.query} offset={route.offset} meta={meta} chain={chain} ready={ready} verify={verify} />
      ) : route.page === 'decisions' ? (
        <DecisionsPage key={route.after ?? -1} after={route.after} ready={ready} />
      ) : (
        <PropositionView key={route.id} id={route.id} meta={meta} chain={chain} ready={ready} />
      )}
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
