/**
 * JSON-RPC 2.0 framing checks applied before a message reaches the SDK, so every malformed
 * message gets a specific error reply (the SDK transports drop some silently).
 */
import { isUtf8 } from 'node:buffer';
import { InvalidJsonError, parseJsonStrict } from '@ewp/core';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** A JSON-RPC error reply. */
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

export function errorReply(id: string | number | null, code: number, message: string): JsonRpcErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Ids the server echoes: strings and integers. `null`, booleans, floats and structures are never echoed. */
function echoableId(value: unknown): string | number | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  return null;
}

/** Either a message fit for the SDK, or the error reply to send instead (`undefined` for a bad notification). */
export type GuardResult = { ok: true; message: JSONRPCMessage } | { ok: false; reply: JsonRpcErrorReply | undefined };

/** Check one decoded JSON value as a single JSON-RPC message. */
export function guardMessage(value: unknown): GuardResult {
  if (typeof value !== 'object' || value === null) {
    return { ok: false, reply: errorReply(null, INVALID_REQUEST, 'invalid request: a JSON-RPC message must be an object') };
  }
  if (Array.isArray(value)) {
    return { ok: false, reply: errorReply(null, INVALID_REQUEST, 'invalid request: batches are not supported; send one message at a time') };
  }
  const message = value as Record<string, unknown>;
  const hasId = Object.hasOwn(message, 'id');
  const id = echoableId(message.id);
  if (hasId && id === null) {
    return { ok: false, reply: errorReply(null, INVALID_REQUEST, 'invalid request: id must be a string or an integer') };
  }
  if (message.jsonrpc !== '2.0') {
    return { ok: false, reply: errorReply(id, INVALID_REQUEST, 'invalid request: jsonrpc must be "2.0"') };
  }
  const isResponse = !Object.hasOwn(message, 'method') && hasId && (Object.hasOwn(message, 'result') || Object.hasOwn(message, 'error'));
  if (!isResponse) {
    if (typeof message.method !== 'string' || message.method === '') {
      return { ok: false, reply: errorReply(id, INVALID_REQUEST, 'invalid request: method must be a non-empty string') };
    }
    if (message.params === null) {
      const { params: _params, ...rest } = message;
      return guardMessage(rest);
    }
    if (Object.hasOwn(message, 'params') && (typeof message.params !== 'object' || Array.isArray(message.params))) {
      // A notification is never answered, even when malformed.
      return { ok: false, reply: hasId ? errorReply(id, INVALID_PARAMS, 'invalid params: params must be an object') : undefined };
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    for (const key of ['name', 'uri', 'protocolVersion']) {
      if (Object.hasOwn(params, key) && typeof params[key] !== 'string') {
        return { ok: false, reply: hasId ? errorReply(id, INVALID_PARAMS, `invalid params: ${key} must be a string`) : undefined };
      }
    }
  }
  // The common shape (a request or notification with plain params) is settled by the checks above;
  // only the rest (responses, `_meta`, extra keys) goes through the SDK's schema.
  if (!isResponse && isPlainCall(message)) return { ok: true, message: message as JSONRPCMessage };
  const parsed = JSONRPCMessageSchema.safeParse(message);
  if (!parsed.success) {
    return { ok: false, reply: hasId ? errorReply(id, INVALID_REQUEST, 'invalid request: not a JSON-RPC 2.0 message') : undefined };
  }
  return { ok: true, message: parsed.data };
}

/**
 * A request or notification the SDK's `JSONRPCMessageSchema` accepts as it is, given the checks of
 * {@link guardMessage}: no key beyond `jsonrpc`, `id`, `method`, `params` (the schema is strict) and
 * no `_meta` in params (whose inner shape the schema checks).
 */
function isPlainCall(message: Record<string, unknown>): boolean {
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  }
  const params = message.params as Record<string, unknown> | undefined;
  return params === undefined || !Object.hasOwn(params, '_meta');
}

/**
 * Deepest nesting of arrays and objects a message may have (the message object itself is level 1).
 * Tool arguments nest a handful of levels; what goes deeper is refused before it is parsed, so no
 * recursive step (serialising a cache key, schema checks, `JSON.stringify` of a reply) meets it.
 */
export const MAX_MESSAGE_DEPTH = 128;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Whether the JSON text `bytes` nests arrays and objects deeper than `limit` (brackets inside
 * strings do not count). Bytes, not characters: every byte of a multi-byte UTF-8 sequence is
 * above 0x7f, so it is never taken for a bracket, quote or backslash.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit: number): boolean {
  // Fewer opening brackets than the limit (strings included) cannot nest past it: counted natively.
  if (bytes.length <= limit) return false;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let opening = 0;
  for (const bracket of [OPEN_BRACE, OPEN_BRACKET]) {
    for (let at = buffer.indexOf(bracket); at !== -1 && opening <= limit; at = buffer.indexOf(bracket, at + 1)) opening++;
  }
  if (opening <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
  }
  return false;
}

/**
 * Decode bytes as strict UTF-8 JSON text (a leading byte order mark is dropped, as `TextDecoder`
 * does), refusing text nested deeper than {@link MAX_MESSAGE_DEPTH}. The checks that need the bytes,
 * apart from parsing: a transport can keep the text while the message waits and let the bytes go.
 */
export function decodeJsonBytes(bytes: Uint8Array): { ok: true; text: string } | { ok: false; reason: string } {
  // `isUtf8` validates in native code without building a string; `TextDecoder` with `fatal` costs
  // several times more per message.
  if (!isUtf8(bytes)) return { ok: false, reason: 'parse error: not UTF-8' };
  if (nestsDeeperThan(bytes, MAX_MESSAGE_DEPTH)) return { ok: false, reason: `parse error: nested deeper than ${MAX_MESSAGE_DEPTH} levels` };
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset + bom, bytes.byteLength - bom).toString('utf8') };
}

/**
 * Parse text that {@link decodeJsonBytes} returned, with core's strict reader: a key given twice
 * (which `JSON.parse` would settle silently, last wins) or a lone surrogate escape is a parse error
 * naming the code and the JSON path, as malformed text is.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: parseJsonStrict(text, { maxDepth: MAX_MESSAGE_DEPTH }) };
  } catch (error) {
    if (!InvalidJsonError.isInstance(error)) throw error;
    return { ok: false, reason: error.code === 'JSON_SYNTAX' ? 'parse error: not JSON' : `parse error: ${error.code}: ${error.message}` };
  }
}

/** {@link decodeJsonBytes}, then {@link parseJsonText}. */
export function parseJsonBytes(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; reason: string } {
  const decoded = decodeJsonBytes(bytes);
  return decoded.ok ? parseJsonText(decoded.text) : decoded;
}
