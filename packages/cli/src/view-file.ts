/** Reading views from files: one view, a list, `{"views": [...]}`, or JSONL; shared by `ewp eval` and `ewp ingest`. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EwpError, parseJson } from '@ewp/core';

/** Where a view came from, for messages: `file[i]`, or `file` for a one-view file. */
export interface Item {
  label: string;
  value?: unknown;
  /** The file or line could not be read as JSON. */
  error?: { code: string; path: string | undefined; message: string };
}

export function describeError(error: unknown): { code: string; path: string | undefined; message: string } {
  if (error instanceof EwpError) {
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

/** The views of one file: one view, a list, `{"views": [...]}`, or JSONL. */
export async function readViewFile(file: string, cwd = process.cwd(), stdin: NodeJS.ReadableStream = process.stdin): Promise<Item[]> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    return [{ label: file, error: { code: 'UNREADABLE_FILE', path: undefined, message: (error as Error).message } }];
  }
  let whole: unknown;
  try {
    whole = parseJson(text);
  } catch (error) {
    const lines = text.split(/\r?\n/);
    const nonBlank = lines.filter((l) => l.trim() !== '');
    if (nonBlank.length < 2) return [{ label: file, error: describeError(error) }];
    // JSONL: one view per line; a bad line is one refused view.
    const items: Item[] = [];
    let i = 0;
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        items.push({ label: `${file}[${i}]`, value: parseJson(line) });
      } catch (lineError) {
        items.push({ label: `${file}[${i}]`, error: describeError(lineError) });
      }
      i += 1;
    }
    return items;
  }
  if (Array.isArray(whole)) return whole.map((value, i) => ({ label: `${file}[${i}]`, value }));
  if (typeof whole === 'object' && whole !== null && 'views' in whole) {
    const views = (whole as { views: unknown }).views;
    if (!Array.isArray(views)) return [{ label: file, error: { code: 'NOT_A_VIEW_LIST', path: '$.views', message: '"views" must be a list of views' } }];
    return views.map((value, i) => ({ label: `${file}[${i}]`, value }));
  }
  if (typeof whole === 'object' && whole !== null) return [{ label: `${file}[0]`, value: whole }];
  return [{ label: file, error: { code: 'NOT_A_VIEW', path: '$', message: 'expected a view, a list of views, {"views": [...]} or JSONL' } }];
}

/** All of a stream, as UTF-8 text (`-` names stdin). */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
