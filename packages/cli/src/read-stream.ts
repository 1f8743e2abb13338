/** Reading a whole input stream with a bound, for the verbs that take a document on stdin. */

/** The whole of `stream` as bytes, or undefined once it passes `limit` (the stream is then closed, unread). */
export async function readAtMost(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    // Leaving the loop destroys the stream: the writer gets EPIPE rather than a reader that never comes.
    if (size > limit) return undefined;
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}
