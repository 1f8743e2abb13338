/**
 * The checks of the memory layer's input, shared by every method: each names the field it refuses
 * (`EWP_REFUSE_MEMORY_INPUT`).
 */
import { isWellFormed } from '@ewp/canonical';
import { type Instant, parseInstant } from '@ewp/core';
import { badInput } from './errors.js';

/** The longest memory text, query or line (characters). */
const MAX_TEXT = 100_000;

/** A non-empty, well-formed string of at most `max` characters. */
export function checkText(value: unknown, path: string, max = MAX_TEXT): string {
  if (typeof value !== 'string' || value.trim() === '') throw badInput(path, 'must be a non-empty string');
  if (value.length > max) throw badInput(path, `must be at most ${max} characters`);
  if (!isWellFormed(value)) throw badInput(path, 'holds an unpaired UTF-16 surrogate');
  return value;
}

/** A project scope: a name, or `null` (global) for absent or `null`. */
export function checkProject(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  return checkText(value, path, 256);
}

/** A list of memory hashes, without repeats; absent: none. */
export function checkHashList(value: unknown, path: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badInput(path, 'must be an array of memory hashes');
  return [...new Set(value.map((h, i) => checkText(h, `${path}[${i}]`, 256)))];
}

/** An ISO-8601 instant. */
export function instantOf(at: string, path: string): Instant {
  const parsed = parseInstant(at);
  if (typeof parsed === 'string') throw badInput(path, `${JSON.stringify(at)} is not an ISO-8601 instant`);
  return parsed;
}
