/**
 * A snapshot that cannot be read as a whole: missing, of another format, or corrupt. The request
 * core answers 503 database_unavailable and logs the file named here; the data is never guessed at.
 */
export class SnapshotError extends Error {
  constructor(
    /** The snapshot file at fault, relative to the snapshot folder. */
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = "SnapshotError";
  }
}
