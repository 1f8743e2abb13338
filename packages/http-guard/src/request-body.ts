/** Reading a request body within the server's limit. */
import type { IncomingMessage } from 'node:http';

/**
 * The body's bytes, or `'too-large'` as soon as more than `limit` bytes arrived (the rest is never
 * read: the guarded server answers 413 and closes the connection). A declared `Content-Length`
 * over the limit is refused before the handler runs.
 */
export async function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
