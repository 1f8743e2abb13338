/**
 * The ledger's revision, read once per run to completion. Every request looked up in one run arrived
 * before it began (input is read between runs, never during one), so a read made anywhere in the run is
 * as fresh as each of them needs; a commit in another process during the run is concurrent with all of
 * them. For caches of derived data (the warrant table, the MCP server's result cache and kept replies),
 * each of which compares it with the revision an entry was computed under.
 */
export class TurnRevision {
  private readonly revision: () => Promise<string>;
  /** The revision read in the current run to completion; dropped at its first microtask checkpoint. */
  private thisTurn: Promise<string | undefined> | undefined;
  private readonly endTurn = (): void => {
    this.thisTurn = undefined;
  };

  constructor(revision: () => Promise<string>) {
    this.revision = revision;
  }

  /** This run's revision, or undefined when the store cannot say it (closed, unavailable): then nothing kept is used. */
  current(): Promise<string | undefined> {
    if (this.thisTurn === undefined) {
      this.thisTurn = this.read();
      queueMicrotask(this.endTurn);
    }
    return this.thisTurn;
  }

  private async read(): Promise<string | undefined> {
    try {
      return await this.revision();
    } catch {
      return undefined;
    }
  }
}
