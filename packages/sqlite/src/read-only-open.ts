/**
 * Opening an existing ledger for reading when its folder may not be writable.
 *
 * A WAL ledger needs its `-shm` index file next to it, even to read. When the last writer closed
 * cleanly that file is gone, and in a folder this process cannot write (a read-only mount, a
 * directory owned by the operator) SQLite cannot create it: the plain read-only open fails. The
 * ledger is then opened as an `immutable` URI (no locks, no `-shm`), which reads exactly what the
 * main file holds. That is the whole ledger only when no `-wal` file holds commits the main file
 * lacks, so a ledger with a `-wal` file in an unwritable folder is refused with the reason instead.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { StoreUnavailableError } from '@ewp/ledger';
import { openSqliteConnection, type SqliteConnection, type SqliteDriverName } from './sqlite-driver.js';

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** `file:` URI of an absolute path, with the characters a URI gives meaning to escaped. */
function immutableUri(file: string): string {
  return `file:${file.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}?immutable=1`;
}

/**
 * Open `file` (absolute, existing) read-only.
 * @throws {StoreUnavailableError} `not_found` when it cannot be opened, `read_only` when its folder is not
 *   writable and a `-wal` file holds commits an immutable read would miss.
 */
export function openReadOnlyDatabase(file: string, busyTimeoutMs: number, driver: SqliteDriverName): SqliteConnection {
  let db: SqliteConnection | undefined;
  try {
    db = openSqliteConnection(file, { readOnly: true, fileMustExist: true, timeout: busyTimeoutMs }, driver);
    // SQLite opens lazily: the first read is where a missing, uncreatable -shm shows.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (cause) {
    if (StoreUnavailableError.isInstance(cause)) throw cause;
    db?.close();
    const folder = dirname(file);
    // A failure with a writable folder (or a probe that cannot tell) is not about the -shm file.
    if (writable(folder) || !existsSync(file)) {
      throw new StoreUnavailableError('not_found', `cannot open ${file}: ${(cause as Error).message}`, { cause });
    }
    if (existsSync(`${file}-wal`) && !existsSync(`${file}-shm`)) {
      throw new StoreUnavailableError(
        'read_only',
        `cannot read ${file}: its folder is not writable and ${file}-wal holds commits not yet in the ledger file; open it once where the folder is writable`,
        { cause },
      );
    }
    try {
      return openSqliteConnection(immutableUri(file), { readOnly: true, fileMustExist: true, uri: true, timeout: busyTimeoutMs }, driver);
    } catch (second) {
      throw new StoreUnavailableError('not_found', `cannot open ${file} (folder not writable, immutable read failed): ${(second as Error).message}`, {
        cause: second,
      });
    }
  }
}
