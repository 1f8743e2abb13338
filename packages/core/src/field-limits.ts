/**
 * The one table of field limits: how long an id, a kind or a text may be, how many elements an array
 * may hold and how deep a JSON value may nest, for everything a caller sends (tool arguments, REST
 * bodies, MCP calls, evidence views). Every decoder reads its bound from here, so a field has the
 * same limit through every surface, and an over-limit value is refused by its JSON path before
 * anything is written: a bounded write keeps the append-only ledger from growing by whatever a
 * caller chooses to send.
 */
import { FIELD_LIMITS, type FieldLimitKind, limitOfMember } from '@ewp/spec';
import { EwpError } from './errors.js';

/** A field beyond its limit in {@link FIELD_LIMITS}; `path` is the field's JSON path. */
export class FieldTooLargeError extends EwpError {
  static override readonly marker: symbol = Symbol.for('ewp.error.FieldTooLargeError');
  declare readonly path: string;
  /** The row of the table that refused it. */
  readonly limit: FieldLimitKind;
  constructor(path: string, limit: FieldLimitKind, message: string) {
    super('EWP_REFUSE_FIELD_TOO_LARGE', message, { path });
    this.name = 'FieldTooLargeError';
    this.limit = limit;
  }
}

const UNIT: Record<FieldLimitKind, string> = { id: 'characters', kind: 'characters', text: 'characters', array: 'elements', depth: 'levels' };

/** The refusal of a value at `path` beyond row `limit` (for decoders that measured it themselves). */
export function fieldTooLarge(path: string, limit: FieldLimitKind): FieldTooLargeError {
  const what = limit === 'array' ? 'holds more than' : limit === 'depth' ? 'nests deeper than' : 'is longer than';
  return new FieldTooLargeError(path, limit, `${what} ${FIELD_LIMITS[limit]} ${UNIT[limit]} (the ${limit} limit)`);
}

/**
 * Refuse a string or array at `path` longer than row `limit` of the table; anything else passes (its
 * type is the decoder's business).
 * @throws FieldTooLargeError
 */
export function checkFieldSize(value: unknown, path: string, limit: Exclude<FieldLimitKind, 'depth'>): void {
  if ((typeof value === 'string' || Array.isArray(value)) && value.length > FIELD_LIMITS[limit]) throw fieldTooLarge(path, limit);
}

/**
 * Refuse a JSON value that breaks the table anywhere: nested deeper than `depth` (the value itself,
 * when an object or array, is level 1), a string longer than its row ({@link limitOfMember}: `id`
 * for `*_id` members, `kind` for `kind`, `text` otherwise), an array (or an object's members) more
 * than `array`; the error names the path of the first such field found. The bound of a whole
 * argument object or request body, checked before a decoder reads its fields. Iterative, so a
 * hostile value cannot exhaust the stack.
 * @throws FieldTooLargeError
 */
export function checkJsonBounds(value: unknown, path = '$'): void {
  const stack: [unknown, string, number, 'id' | 'kind' | 'text'][] = [[value, path, 1, 'text']];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [v, at, depth, row] = item;
    if (typeof v === 'string') {
      if (v.length > FIELD_LIMITS[row]) throw fieldTooLarge(at, row);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > FIELD_LIMITS.depth) throw fieldTooLarge(at, 'depth');
    if (Array.isArray(v)) {
      if (v.length > FIELD_LIMITS.array) throw fieldTooLarge(at, 'array');
      // An array's strings take the row of the member holding it (`subjects` text, an `*_ids` list text too).
      for (let i = 0; i < v.length; i++) stack.push([v[i], `${at}[${i}]`, depth + 1, row]);
    } else {
      const keys = Object.keys(v);
      if (keys.length > FIELD_LIMITS.array) throw fieldTooLarge(at, 'array');
      for (const key of keys) stack.push([(v as Record<string, unknown>)[key], `${at}.${key}`, depth + 1, limitOfMember(key)]);
    }
  }
}
