/**
 * Offline Mem0 (`mem0ai/oss`) keeps its vectors and history in better-sqlite3, whose native addon is
 * built for the machine's Node. Under another Node it loads only where that Node has its own build
 * (the Node 22 and 24 lanes build one, scripts/node-lane-better-sqlite3.mjs). Our own SQLite store needs none of
 * this: it runs on the built-in node:sqlite there.
 */
import { createRequire } from 'node:module';

/** Why better-sqlite3 (as mem0ai loads it) cannot open a database under this Node, or undefined when it can. */
export function mem0SqliteUnavailable(): string | undefined {
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => { close(): void };
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
}
