/**
 * stdout as a command that must finish its job writes it: a write waits for a lagging reader, and a
 * reader that went away (EPIPE, or any other error of the stream) closes the sink instead of ending
 * the process or leaving the write waiting for a `drain` that never comes. The command then finishes
 * and says on stderr that its report was cut short.
 */
export class OutputSink {
  /** Why the output closed (the stream's error message), once it has. */
  closedBy: string | undefined;

  constructor(private readonly stream: NodeJS.WritableStream) {
    stream.on('error', (error: Error) => {
      this.closedBy ??= error.message;
    });
  }

  /** Whether the output still takes writes. */
  get open(): boolean {
    return this.closedBy === undefined;
  }

  /** Write `text`, waiting while the reader lags; nothing once the output has closed. */
  async write(text: string): Promise<void> {
    if (text === '' || !this.open) return;
    if (this.stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.once('drain', done);
      this.stream.once('error', done);
      this.stream.once('close', done);
    });
  }
}
