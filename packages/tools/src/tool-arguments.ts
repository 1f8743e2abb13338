/**
 * The one decoder of tool arguments: each reader refuses a malformed value with
 * `EWP_REFUSE_INVALID_ARGUMENTS` and the JSON path of the argument (`$.check.check_id`). The zod
 * schemas describe the same arguments to models and clients; these readers decide, because every
 * malformed value must get its own EWP code rather than a framework's validation error.
 */
import { checkJsonBounds, FIELD_LIMITS, FieldTooLargeError, fieldTooLarge } from '@ewp/core';
import type { z } from 'zod/v4';
import { invalidArgument, ToolRefusal } from './refusal.js';

/** An unpaired UTF-16 surrogate: it cannot be stored as UTF-8, so an id holding one is refused by name. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Tool arguments after `null`/absent became `{}`. */
export type ToolArguments = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `null` and absent are the same thing for every argument. */
export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The JSON path of an argument given by its dotted name (`check.source` → `$.check.source`). */
export function argumentPath(name: string): string {
  return `$.${name}`;
}

/** The JSON path of a schema issue's path (`['supports', 1]` → `$.supports[1]`). */
function issuePath(path: readonly PropertyKey[]): string {
  return `$${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
}

/**
 * Read tool arguments by a zod schema (absent or `null` arguments are `{}`), for the tools whose
 * schema is the whole rule (the memory and decision tools). The first issue is refused with
 * `EWP_REFUSE_INVALID_ARGUMENTS`, the schema's message and the argument's JSON path.
 * @throws {ToolRefusal} `EWP_REFUSE_INVALID_ARGUMENTS` naming the first bad argument.
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  try {
    checkJsonBounds(raw ?? {});
  } catch (error) {
    throw FieldTooLargeError.isInstance(error) ? toolRefusalOf(error) : error;
  }
  return schemaArguments(schema, raw);
}

/**
 * {@link parseToolArguments} without the bound check, for arguments `runTool` already bounded.
 * @throws {ToolRefusal} `EWP_REFUSE_INVALID_ARGUMENTS` (or `EWP_REFUSE_FIELD_TOO_LARGE` for a schema bound) naming the first bad argument.
 */
export function schemaArguments<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issuePath(issue?.path ?? []);
  // A schema bound is a row of the field-limits table: refused with the table's code.
  if (issue?.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
    throw new ToolRefusal('EWP_REFUSE_FIELD_TOO_LARGE', `must hold at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'elements'}`, {
      path,
    });
  }
  throw invalidArgument(path, issue?.message ?? 'invalid arguments');
}

/** A field-limits refusal of core as the tool refusal every binding reports (the reason without core's path prefix). */
function toolRefusalOf(error: FieldTooLargeError): ToolRefusal {
  const prefix = `${error.path}: `;
  const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return new ToolRefusal('EWP_REFUSE_FIELD_TOO_LARGE', reason, { path: error.path, cause: error });
}

function invalid(name: string, message: string): ToolRefusal {
  return invalidArgument(argumentPath(name), message);
}

/**
 * An id argument: a non-empty string, or a finite number converted to text. `true`, `""`,
 * arrays and objects are refused; `null` is missing.
 */
export function readId(args: ToolArguments, name: string, required: true): string;
export function readId(args: ToolArguments, name: string, required?: false): string | undefined;
export function readId(args: ToolArguments, name: string, required = false): string | undefined {
  return idValue(args[name], name, required);
}

/** {@link readId} for a value already taken out of its object. */
export function idValue(value: unknown, name: string, required: boolean): string | undefined {
  if (isAbsent(value)) {
    if (required) throw invalid(name, 'is required');
    return undefined;
  }
  if (typeof value === 'string' && value !== '') {
    if (value.length > FIELD_LIMITS.id) throw toolRefusalOf(fieldTooLarge(argumentPath(name), 'id'));
    if (LONE_SURROGATE.test(value)) throw new ToolRefusal('LONE_SURROGATE', 'holds an unpaired UTF-16 surrogate', { path: name });
    return value;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw invalid(name, `must be a non-empty string or a number, got ${describe(value)}`);
}

/** An optional object argument; `null` is absent. */
export function readObject(args: ToolArguments, name: string): Record<string, unknown> | undefined {
  const value = args[name];
  if (isAbsent(value)) return undefined;
  if (!isObject(value)) throw invalid(name, `must be an object, got ${describe(value)}`);
  return value;
}

/** Optional free text: strings as given, numbers as their decimal text; anything else refused. */
export function readText(args: ToolArguments, name: string): string | undefined {
  const value = args[name];
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw invalid(name, `must be a string, got ${describe(value)}`);
}

/** An integer in [min, max] (booleans and fractions refused), or the default when absent. */
export function readInteger(args: ToolArguments, name: string, min: number, max: number, fallback: number): number {
  const value = args[name];
  if (isAbsent(value)) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(name, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** Attestation counts only as JSON `true`: `"true"`, `1`, `[1]` and `{}` do not. */
export function isAttested(args: ToolArguments): boolean {
  return args.ingest_attestation === true;
}

/** Whether the argument was supplied with a non-null value. */
export function hasArgument(args: ToolArguments, name: string): boolean {
  return Object.hasOwn(args, name) && !isAbsent(args[name]);
}
