/**
 * Reading views as a stream, shared by `ewp eval` and `ewp ingest`: JSONL, a JSON list, `{"views": [...]}`
 * (with `"views"` as its first key) or one view. Lists are split into their elements' texts by a
 * string-aware scan and each element goes to the same decoder (`parseJson`) as a whole file would, so
 * memory stays bounded by the largest view, not the file. Only one view, a multi-line document whose
 * first key is not `"views"`, or a file that is not valid JSON is held whole (as before).
 */
import { closeSync, createReadStream, fstatSync, openSync, ReadStream, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { EwpError, parseJson, Utf8StreamDecoder } from '@ewp/core';
import type { CliErrorCode } from './errors.js';

/** A refusal as the CLI reports it: code, JSON path, message. */
export interface ItemError {
  code: string;
  path: string | undefined;
  message: string;
}

/** One view read from a file (or why it could not be read): `label` is `file[i]`, or `file` for the whole file. */
export interface Item {
  label: string;
  value?: unknown;
  /** The file or this element could not be read as JSON. */
  error?: ItemError;
  /** The file holds this one view and nothing else. */
  only?: true;
  /** The error is the file's: it could not be read on from here (unreadable, not UTF-8, too long). */
  stopsFile?: true;
}

/** How a view file is read. */
export interface ReadOptions {
  /** Longest line, list element or document, in UTF-16 code units of the decoded text (never more than its UTF-8 bytes). */
  maxViewBytes?: number;
  /** Told the size of each chunk read. */
  onBytes?: (n: number) => void;
}

/** The reader's default size limit of one line, list element or document. */
export const DEFAULT_MAX_VIEW_BYTES = 64 * 2 ** 20;

/** The option that sets {@link ReadOptions.maxViewBytes} on the command line. */
export const MAX_VIEW_BYTES_OPTION = 'max-view-bytes';

const SIZE_UNITS: Record<string, number> = { '': 1, B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 };

/** A size given on the command line (`65536`, `64KiB`, `64MiB`, `1GiB`), or undefined when it is not one. */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+)(B|KiB|MiB|GiB)?$/.exec(text.trim());
  if (m === null) return undefined;
  const bytes = Number(m[1]) * (SIZE_UNITS[m[2] ?? ''] as number);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

function formatSize(bytes: number): string {
  for (const unit of ['GiB', 'MiB', 'KiB'] as const) {
    const size = SIZE_UNITS[unit] as number;
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** A line, list element or document longer than the limit: reading the file stops there. */
function tooLarge(max: number): EwpError<CliErrorCode> {
  return new EwpError<CliErrorCode>(
    'INPUT_TOO_LARGE',
    `a line, list element or document longer than ${formatSize(max)} (--${MAX_VIEW_BYTES_OPTION}); the rest of the input is not read`,
  );
}

export function describeError(error: unknown): ItemError {
  if (EwpError.isInstance(error)) {
    const message = error.path !== undefined && error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message;
    return { code: error.code, path: error.path, message };
  }
  const e = error as { code?: unknown; path?: unknown; message?: unknown };
  return {
    code: typeof e.code === 'string' ? e.code : 'ERROR',
    path: typeof e.path === 'string' ? e.path : undefined,
    message: typeof e.message === 'string' ? e.message : String(error),
  };
}

/**
 * Most views parsed ahead of their consumer. A 1 MiB read holds thousands of small views; parsed all
 * at once, they outlive several young-generation collections, get copied into the old generation and
 * grow the heap (the peak RSS of a large ingest). A few hundred die young instead.
 */
const ITEMS_PER_YIELD = 256;

/**
 * Bytes per read. Under V8's large-object threshold (128 KiB), so a decoded chunk is an ordinary
 * young-generation string: a larger one is mapped outside the heap, every line sliced from it keeps
 * it alive, which made `ewp eval --jsonl` slower (docs/performance.md).
 */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of a regular file, read synchronously: a command with nothing else to do gains nothing
 * from reads on the thread pool and loses the hand-off. The event loop still runs between chunks
 * (signal handlers, progress timers, GC observers would starve on microtasks alone). One buffer
 * is reused: a chunk is valid until the next one is read.
 */
async function* regularFileChunks(fd: number): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  for (;;) {
    const n = readSync(fd, buffer, 0, READ_CHUNK_BYTES, null);
    if (n === 0) return;
    yield buffer.subarray(0, n);
    await new Promise(setImmediate);
  }
}

function isRegularFile(fd: number): boolean {
  try {
    // BigInt stats: Node 20's realpathSync reads the last plain fstat's mode from a shared buffer, and
    // a FIFO's there made it stop resolving symlinks, so `import('@ewp/sqlite')` later failed.
    return fstatSync(fd, { bigint: true }).isFile();
  } catch {
    return false;
  }
}

/**
 * The chunks of an input stream: read synchronously when it is a file stream over a regular file
 * (`process.stdin` redirected from a file), otherwise the stream itself (pipes, terminals, tests).
 */
export function inputChunks(stream: NodeJS.ReadableStream): AsyncIterable<Buffer | string> {
  const fd = stream instanceof ReadStream ? (stream as ReadStream & { fd: unknown }).fd : undefined;
  return typeof fd === 'number' && isRegularFile(fd) ? regularFileChunks(fd) : stream;
}

/** The byte chunks of `file` (`-` is stdin), reporting each chunk's size to `onBytes`. */
async function* byteChunks(file: string, cwd: string, stdin: NodeJS.ReadableStream, onBytes?: (n: number) => void): AsyncGenerator<Buffer | string> {
  if (file === '-') {
    yield* reported(inputChunks(stdin), onBytes);
    return;
  }
  const fd = openSync(resolve(cwd, file), 'r');
  if (!isRegularFile(fd)) {
    // A FIFO or device: the stream reads it on the thread pool and closes it when done or stopped.
    yield* reported(createReadStream('', { fd, highWaterMark: READ_CHUNK_BYTES }), onBytes);
    return;
  }
  try {
    yield* reported(regularFileChunks(fd), onBytes);
  } finally {
    closeSync(fd);
  }
}

async function* reported(chunks: AsyncIterable<Buffer | string>, onBytes?: (n: number) => void): AsyncGenerator<Buffer | string> {
  for await (const chunk of chunks) {
    onBytes?.(chunk.length);
    yield chunk;
  }
}

/**
 * UTF-8 text chunks of a byte stream (a character split across two reads is joined).
 * @throws {import('@ewp/core').InvalidUtf8Error} `INVALID_UTF8` at the first byte that is not UTF-8.
 */
async function* textChunks(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new Utf8StreamDecoder();
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    } catch (error) {
      // The text before the first bad byte is read; reading stops there.
      if (decoder.textBeforeError !== '') yield decoder.textBeforeError;
      throw error;
    }
    if (text !== '') yield text;
  }
  const last = decoder.end();
  if (last !== '') yield last;
}

function stripCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}

/**
 * The lines of a text stream (`\n` or `\r\n`), in batches (one per read), so a consumer pays one
 * await per read rather than per line. A line longer than a read is joined once, not re-scanned.
 */
export async function* readLines(chunks: AsyncIterable<Buffer | string>, maxLine = DEFAULT_MAX_VIEW_BYTES): AsyncGenerator<string[]> {
  let parts: string[] = [];
  /** Length of the line so far (the parts). */
  let partial = 0;
  for await (const text of textChunks(chunks)) {
    const nl = text.indexOf('\n');
    if (nl === -1) {
      partial += text.length;
      if (partial > maxLine) throw tooLarge(maxLine);
      parts.push(text);
      continue;
    }
    if (partial + nl > maxLine) throw tooLarge(maxLine);
    const lines = text.split('\n');
    const tail = lines.pop() as string;
    if (parts.length > 0) {
      parts.push(lines[0] as string);
      lines[0] = parts.join('');
    }
    parts = tail === '' ? [] : [tail];
    partial = tail.length;
    for (let i = 0; i < lines.length; i += 1) {
      const line = lines[i] as string;
      if (line.length > maxLine) {
        // The lines before it are read; reading stops at it.
        if (i > 0) yield lines.slice(0, i);
        throw tooLarge(maxLine);
      }
      lines[i] = stripCr(line);
    }
    yield lines;
  }
  if (parts.length > 0) yield [stripCr(parts.join(''))];
}

/** A text stream read from the front, with what was looked at but not consumed kept for the next reader. */
class TextSource {
  /** Unconsumed text of the current chunk. */
  text = '';
  private readonly chunks: AsyncIterator<string>;
  constructor(
    chunks: AsyncIterable<string>,
    /** Longest text held whole (a list element, a document). */
    readonly max: number,
  ) {
    this.chunks = chunks[Symbol.asyncIterator]();
  }
  /** Load the next chunk when the current one is used up; false at the end of the stream. */
  async fill(): Promise<boolean> {
    while (this.text === '') {
      const next = await this.chunks.next();
      if (next.done) return false;
      this.text = next.value;
    }
    return true;
  }
  /** Skip whitespace; the first other character, left unconsumed (undefined at the end). */
  async peekNonWhitespace(): Promise<string | undefined> {
    for (;;) {
      if (!(await this.fill())) return undefined;
      const i = firstNonWhitespace(this.text, 0);
      if (i < this.text.length) {
        this.text = this.text.slice(i);
        return this.text[0];
      }
      this.text = '';
    }
  }
  /** Everything left, joined. */
  async rest(): Promise<string> {
    const parts: string[] = [];
    let length = 0;
    while (await this.fill()) {
      length += this.text.length;
      if (length > this.max) throw tooLarge(this.max);
      parts.push(this.text);
      this.text = '';
    }
    return parts.join('');
  }
  /** Stop reading (closes the file when the reader stops early). */
  async close(): Promise<void> {
    await this.chunks.return?.();
  }
  /** The rest as a chunk stream (for the line reader). */
  async *remaining(): AsyncGenerator<string> {
    while (await this.fill()) {
      const t = this.text;
      this.text = '';
      yield t;
    }
  }
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function firstNonWhitespace(t: string, from: number): number {
  let i = from;
  while (i < t.length && isWhitespace(t.charCodeAt(i))) i += 1;
  return i;
}

const QUOTE_OR_BACKSLASH = /["\\]/g;

/**
 * Split a JSON list into its elements' texts, reading from just after its `[` up to its `]` (which is
 * consumed). Structure is found by a string-aware bracket count; what each element holds is left to
 * the decoder, so a malformed element is one refused element. Yields element texts in batches; an
 * element that is empty (`[1,,2]`, `[1,]`) is yielded as `''` and refused by the decoder. Returns
 * false when the stream ended before the list did.
 */
async function* listElements(source: TextSource): AsyncGenerator<string[], boolean> {
  let depth = 0;
  let inString = false;
  /** A backslash ended the previous chunk inside a string: the next character is escaped. */
  let escaped = false;
  let parts: string[] = [];
  /** Length of the current element's text in `parts`. */
  let partial = 0;
  /** Elements so far, and whether the current element has any non-whitespace text. */
  let count = 0;
  let started = false;
  while (await source.fill()) {
    const t = source.text;
    const n = t.length;
    const out: string[] = [];
    let from = 0;
    let i = 0;
    if (escaped) {
      i = 1;
      escaped = false;
    }
    let closedAt = -1;
    while (i < n) {
      if (inString) {
        QUOTE_OR_BACKSLASH.lastIndex = i;
        const m = QUOTE_OR_BACKSLASH.exec(t);
        if (m === null) {
          i = n;
          break;
        }
        if (t.charCodeAt(m.index) === 0x5c) {
          if (m.index + 1 >= n) {
            escaped = true;
            i = n;
            break;
          }
          i = m.index + 2;
          continue;
        }
        inString = false;
        i = m.index + 1;
        continue;
      }
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        inString = true;
        started = true;
      } else if (c === 0x7b || c === 0x5b) {
        depth += 1;
        started = true;
      } else if ((c === 0x7d || c === 0x5d) && depth > 0) {
        depth -= 1;
      } else if (depth === 0 && (c === 0x2c || c === 0x5d)) {
        const piece = t.slice(from, i);
        if (partial + piece.length > source.max) {
          // The elements before it are read; reading stops at it.
          if (out.length > 0) yield out;
          throw tooLarge(source.max);
        }
        const element = parts.length === 0 ? piece : parts.join('') + piece;
        parts = [];
        partial = 0;
        // `[]` has no element; `[ ]` neither; `[1,]` has an empty last one.
        if (c === 0x2c || started || count > 0) {
          out.push(element);
          count += 1;
        }
        started = false;
        from = i + 1;
        if (c === 0x5d) {
          closedAt = i;
          break;
        }
      } else if (!isWhitespace(c)) {
        started = true;
      }
      i += 1;
    }
    if (closedAt >= 0) {
      source.text = t.slice(closedAt + 1);
      if (out.length > 0) yield out;
      return true;
    }
    if (from < n) {
      partial += n - from;
      if (partial > source.max) throw tooLarge(source.max);
      parts.push(from === 0 ? t : t.slice(from));
    }
    source.text = '';
    if (out.length > 0) yield out;
  }
  if (started) yield [parts.join('')];
  return false;
}

/** The items of one whole JSON document, as a file of one view, a list or `{"views": [...]}` reads. */
function documentItems(file: string, whole: unknown): Item[] {
  if (Array.isArray(whole)) return whole.map((value, i) => ({ label: `${file}[${i}]`, value }));
  if (typeof whole === 'object' && whole !== null && 'views' in whole) {
    const views = (whole as { views: unknown }).views;
    if (!Array.isArray(views)) return [{ label: file, error: { code: 'NOT_A_VIEW_LIST', path: '$.views', message: '"views" must be a list of views' } }];
    return views.map((value, i) => ({ label: `${file}[${i}]`, value }));
  }
  if (typeof whole === 'object' && whole !== null) return [{ label: `${file}[0]`, value: whole, only: true }];
  return [{ label: file, error: { code: 'NOT_A_VIEW', path: '$', message: 'expected a view, a list of views, {"views": [...]} or JSONL' } }];
}

function parsedItem(label: string, text: string): Item {
  try {
    return { label, value: parseJson(text) };
  } catch (error) {
    return { label, error: describeError(error) };
  }
}

/** Decode a batch of element texts of `file`, numbered from `first`. */
function elementItems(file: string, first: number, texts: readonly string[]): Item[] {
  const items: Item[] = new Array(texts.length);
  for (let k = 0; k < texts.length; k += 1) items[k] = parsedItem(`${file}[${first + k}]`, texts[k] as string);
  return items;
}

/** Stream the elements of a list (the source is just past its `[`), then check what follows. */
async function* streamList(file: string, source: TextSource, after: (rest: string) => Item | undefined): AsyncGenerator<Item[]> {
  const elements = listElements(source);
  let index = 0;
  for (;;) {
    const next = await elements.next();
    if (next.done) {
      if (!next.value) {
        yield [{ label: file, error: { code: 'JSON_SYNTAX', path: '$', message: 'the list of views is not closed: the file ends inside it' } }];
        return;
      }
      break;
    }
    const texts = next.value;
    for (let from = 0; from < texts.length; from += ITEMS_PER_YIELD) {
      const part = texts.slice(from, from + ITEMS_PER_YIELD);
      yield elementItems(file, index, part);
      index += part.length;
    }
  }
  const tail = after(await source.rest());
  if (tail !== undefined) yield [tail];
}

/** The key and the position after it, when `head` starts (after `{` and whitespace) with a complete string key and `:`. */
function firstKey(head: string): { key: string; end: number } | undefined {
  const open = firstNonWhitespace(head, 1);
  if (head.charCodeAt(open) !== 0x22) return undefined;
  let close = open;
  for (;;) {
    close = head.indexOf('"', close + 1);
    if (close < 0) return undefined;
    let b = close - 1;
    while (head.charCodeAt(b) === 0x5c) b -= 1;
    if ((close - 1 - b) % 2 === 0) break;
  }
  const colon = firstNonWhitespace(head, close + 1);
  if (head.charCodeAt(colon) !== 0x3a) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(head.slice(open, close + 1));
  } catch {
    return undefined;
  }
  return typeof key === 'string' ? { key, end: firstNonWhitespace(head, colon + 1) } : undefined;
}

/** Longest object head read while looking for its first key (a key longer than this is not `"views"`). */
const MAX_HEAD_CHARS = 4096;

/**
 * The views of one file (`-` is stdin), in batches, as they are read: one view, a list,
 * `{"views": [...]}`, or JSONL. When the file cannot be read on, the last item is its error, marked
 * `stopsFile`: `UNREADABLE_FILE`, `INVALID_UTF8` (with the byte offset) or `INPUT_TOO_LARGE`.
 */
export async function* readViews(file: string, cwd: string, stdin: NodeJS.ReadableStream, options: ReadOptions = {}): AsyncGenerator<Item[]> {
  const source = new TextSource(textChunks(byteChunks(file, cwd, stdin, options.onBytes)), options.maxViewBytes ?? DEFAULT_MAX_VIEW_BYTES);
  try {
    yield* viewsOf(file, source);
  } catch (error) {
    const stop = fileError(error);
    if (stop === undefined) throw error;
    yield [{ label: file, error: stop, stopsFile: true }];
  } finally {
    await source.close();
  }
}

/** The error of a file that cannot be read on, or undefined for any other error (a defect). */
export function fileError(error: unknown): ItemError | undefined {
  if (EwpError.isInstance(error) && (error.code === 'INVALID_UTF8' || error.code === 'INPUT_TOO_LARGE')) return describeError(error);
  const e = error as NodeJS.ErrnoException;
  if (typeof e.code === 'string' && typeof e.syscall === 'string') return { code: 'UNREADABLE_FILE', path: undefined, message: e.message };
  return undefined;
}

async function* viewsOf(file: string, source: TextSource): AsyncGenerator<Item[]> {
  const first = await source.peekNonWhitespace();
  if (first === '[') {
    source.text = source.text.slice(1);
    yield* streamList(file, source, (rest) =>
      rest.trim() === '' ? undefined : { label: file, error: { code: 'JSON_SYNTAX', path: '$', message: 'extra data after the list of views' } },
    );
    return;
  }
  if (first === '{') {
    // Read enough of the head to see the first key.
    const headRead = (head: string) => {
      const key = firstKey(head);
      return key !== undefined && key.end < head.length;
    };
    while (source.text.length < MAX_HEAD_CHARS && !headRead(source.text)) {
      const more = source.text;
      source.text = '';
      if (!(await source.fill())) {
        source.text = more;
        break;
      }
      source.text = more + source.text;
    }
    const key = firstKey(source.text);
    if (key?.key === 'views' && source.text.charCodeAt(key.end) === 0x5b) {
      source.text = source.text.slice(key.end + 1);
      yield* streamList(file, source, (rest) => {
        // The wrapper's other keys are ignored, as when the file is read whole; a second "views" would win there.
        // The streamed list stands in as a string no file holds, so a second "views" key replaces it.
        const streamed = '\u0000ewp:streamed';
        let wrapper: unknown;
        try {
          wrapper = parseJson(`{"views":${JSON.stringify(streamed)}${rest}`);
        } catch (error) {
          return { label: file, error: { ...describeError(error), message: `after the list of views: ${describeError(error).message}` } };
        }
        return (wrapper as { views: unknown }).views === streamed
          ? undefined
          : {
              label: file,
              error: { code: 'DUPLICATE_KEY', path: '$.views', message: 'a second "views" key after the list of views (put all views in one list)' },
            };
      });
      return;
    }
  }
  if (first === undefined) {
    yield [parsedItem(file, '')];
    return;
  }
  yield* linesOrDocument(file, source);
}

/**
 * JSONL, or one document: when the first line is JSON on its own and more lines follow, each line is
 * a view (a bad line is one refused view); otherwise the text is one document, held whole.
 */
async function* linesOrDocument(file: string, source: TextSource): AsyncGenerator<Item[]> {
  const lines = readLines(source.remaining(), source.max);
  /** Length of the held lines (and their line breaks). */
  let heldLength = 0;
  let firstLine: string | undefined;
  let firstValue: unknown;
  let index = 0;
  /** Held while the text may still be one multi-line document. */
  let held: string[] | undefined;
  try {
    yield* jsonlItems();
  } catch (error) {
    // The input stopped being readable after its first line: that line is read, as a document.
    if (held === undefined && index === 0 && firstLine !== undefined && fileError(error) !== undefined) yield documentItems(file, firstValue);
    throw error;
  }
  async function* jsonlItems(): AsyncGenerator<Item[]> {
    for await (const batch of lines) {
      let k = 0;
      if (firstLine === undefined) {
        firstLine = batch[0] as string;
        k = 1;
        try {
          firstValue = parseJson(firstLine);
        } catch {
          held = [firstLine];
        }
      }
      if (held !== undefined) {
        for (; k < batch.length; k += 1) {
          const line = batch[k] as string;
          heldLength += line.length + 1;
          if (heldLength > source.max) throw tooLarge(source.max);
          held.push(line);
        }
        continue;
      }
      let out: Item[] = [];
      for (; k < batch.length; k += 1) {
        const line = batch[k] as string;
        if (line.trim() === '') continue;
        if (index === 0) {
          // A second line: the file is JSONL, and the first line was its view 0.
          out.push({ label: `${file}[0]`, value: firstValue });
          index = 1;
        }
        out.push(parsedItem(`${file}[${index}]`, line));
        index += 1;
        if (out.length >= ITEMS_PER_YIELD) {
          yield out;
          out = [];
        }
      }
      if (out.length > 0) yield out;
    }
  }
  if (held === undefined) {
    // One line of JSON and nothing else: one document.
    if (index === 0 && firstLine !== undefined) yield documentItems(file, firstValue);
    return;
  }
  const text = held.join('\n');
  held = undefined;
  let whole: unknown;
  try {
    whole = parseJson(text);
  } catch (error) {
    // Not one document: JSONL whose first line is bad (each line one view), or a broken file.
    const nonBlank = text.split('\n').filter((l) => l.trim() !== '');
    if (nonBlank.length < 2) {
      yield [{ label: file, error: describeError(error) }];
      return;
    }
    yield nonBlank.map((line, i) => parsedItem(`${file}[${i}]`, line));
    return;
  }
  yield documentItems(file, whole);
}
