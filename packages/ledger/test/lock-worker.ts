/** Child process for the lock tests: takes and releases the lock at `argv[2]` in a tight loop, forever. */
import { withFileLock } from '../src/file-lock.js';

const path = process.argv[2] as string;
process.stdout.write('ready\n');
for (;;) {
  await withFileLock(path, 60_000, () => undefined);
}
