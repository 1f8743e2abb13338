/** The page's hash routes, shared by the pages and the panels that link to them. */

/** The link to a proposition's page. */
export function propositionHref(id: string): string {
  return `#/p/${encodeURIComponent(id)}`;
}

/** The link to the list of recorded decisions (after chain index `after`). */
export function decisionsHref(after?: number): string {
  return after === undefined ? '#/decisions' : `#/decisions?after=${after}`;
}
