/**
 * The one table of field limits: how long an id, a kind or a text may be, how many elements an array
 * may hold and how deep a JSON value may nest, for everything a caller sends (tool arguments, REST
 * bodies, MCP calls, evidence views). Every decoder reads its bound from here, so a field has the
 * same limit through every surface. The checks that apply it are `@ewp/core`'s (`checkJsonBounds`).
 */

/** The field limits (UTF-16 code units for strings, elements for arrays, levels for nesting). */
export const FIELD_LIMITS = {
  /** An id: proposition, view, record, action, decision, memory hash. */
  id: 512,
  /** A kind or a name: an action kind, a source name, a principal, an enumerated value given as text. */
  kind: 128,
  /** Free text: a memory, an assertion or evidence text, a query, a note. */
  text: 100_000,
  /** Elements of one array (supports, derived_from, subjects, records of one kind in a view). */
  array: 10_000,
  /** Nesting depth of one JSON value (an argument object is level 1). */
  depth: 32,
} as const;

/**
 * Which row bounds a member by its name, wherever it appears in a body: an id is a member named `id`
 * or ending in `_id` (`proposition_id`, `action_id`, `check_id`, ...), a kind one named `kind`. Any
 * other string is text.
 */
export function limitOfMember(key: string): 'id' | 'kind' | 'text' {
  if (key === 'id' || key.endsWith('_id')) return 'id';
  return key === 'kind' ? 'kind' : 'text';
}

/** A row of {@link FIELD_LIMITS}. */
export type FieldLimitKind = keyof typeof FIELD_LIMITS;
