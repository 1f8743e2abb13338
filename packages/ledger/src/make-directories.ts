/**
 * `mkdir -p` that always ends. Node's `mkdirSync(path, { recursive: true })` loops forever where
 * the kernel answers ENOENT for a directory it will never create (`/proc/x/y`); this creates the
 * missing ancestors one at a time, top down, and turns the first failure into a typed error.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { StoreUnavailableError } from './errors.js';

/** Create `path` and its missing ancestors. @throws {StoreUnavailableError} `connection`, naming the directory and the OS error. */
export function makeDirectories(path: string): void {
  const missing: string[] = [];
  let cursor = resolve(path);
  for (;;) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(cursor).isDirectory();
    } catch {
      isDir = undefined;
    }
    if (isDir === true) break;
    if (isDir === false) throw new StoreUnavailableError('connection', `cannot create directory ${path}: ${cursor} is not a directory`);
    missing.push(cursor);
    const parent = dirname(cursor);
    if (parent === cursor) break;
    cursor = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new StoreUnavailableError('connection', `cannot create directory ${dir}: ${code ?? (error as Error).message}`, { cause: error });
    }
  }
}
