import { TimestampError } from '../errors.js';

/**
 * An RFC 3339 instant as microseconds since the Unix epoch (docs/spec/receipts.md §3.2). A `Date` keeps only
 * milliseconds and would call `…00.000100` and `…00.000900` equal, so the fraction is parsed here.
 */
export type Micros = bigint;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:?\d{2}(?::?\d{2}(?:\.\d+)?)?)?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/**
 * Parses an RFC 3339 timestamp with `Z` or `±HH:MM` (any number of fraction digits, truncated to
 * microseconds). A timestamp without an offset, or a bare date, is refused as naive.
 * @param naiveMessage the reference's message for a naive value in this position.
 * @throws {TimestampError} `NAIVE_TIMESTAMP` or `BAD_TIMESTAMP`.
 */
export function parseInstantMicros(text: string, naiveMessage = 'timestamps must include a timezone', path?: string): Micros {
  if (typeof text !== 'string') throw new TimestampError('BAD_TIMESTAMP', 'timestamp is not a string', path);
  if (DATE_ONLY.test(text)) throw new TimestampError('NAIVE_TIMESTAMP', naiveMessage, path);
  const m = RFC3339.exec(text);
  if (m === null) throw new TimestampError('BAD_TIMESTAMP', `Invalid isoformat string: '${text}'`, path);
  const [, ys, mos, ds, hs, mis, ss, frac, offset] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  const h = Number(hs);
  const mi = Number(mis);
  const s = ss === undefined ? 0 : Number(ss);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) {
    throw new TimestampError('BAD_TIMESTAMP', `timestamp out of range: '${text}'`, path);
  }
  if (offset === undefined) throw new TimestampError('NAIVE_TIMESTAMP', naiveMessage, path);
  let offsetMicros = 0n;
  if (offset !== 'Z') {
    const digits = offset.slice(1).replace(/:/g, '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    const os = digits.length > 4 ? Number(digits.slice(4, 6)) : 0;
    if (oh > 23 || om > 59 || os > 59) {
      throw new TimestampError('BAD_TIMESTAMP', `offset out of range: '${text}'`, path);
    }
    offsetMicros = BigInt((oh * 3600 + om * 60 + os) * 1_000_000) * (offset[0] === '-' ? -1n : 1n);
  }
  const micros = frac === undefined ? 0 : Number(frac.slice(0, 6).padEnd(6, '0'));
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
  return BigInt(seconds) * 1_000_000n + BigInt(micros) - offsetMicros;
}
