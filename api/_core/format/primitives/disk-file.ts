/**
 * A snapshot file open for positioned reads. Reads are synchronous on purpose: they hit the page
 * cache in microseconds, less than a trip through libuv's thread pool would cost.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { SnapshotError } from "./errors.js";

export class DiskFile {
  private readonly fd: number;
  readonly size: number;

  /** Opens `path`; `name` is how errors name it (relative to the snapshot). */
  constructor(
    path: string,
    readonly name: string,
  ) {
    try {
      this.fd = openSync(path, "r");
      this.size = fstatSync(this.fd).size;
    } catch (error) {
      throw new SnapshotError(name, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  }

  /**
   * `length` bytes at `offset`, in memory of their own: never a slice of Buffer's shared pool,
   * since caches keep what is read and a pooled slice would pin its whole slab.
   */
  read(offset: number, length: number): Buffer {
    if (offset < 0 || length < 0 || offset + length > this.size) {
      throw new SnapshotError(
        this.name,
        `a read of ${length} bytes at ${offset} runs past the end (${this.size} bytes)`,
      );
    }
    const out = Buffer.allocUnsafeSlow(length);
    let done = 0;
    while (done < length) {
      const n = readSync(this.fd, out, done, length - done, offset + done);
      if (n === 0) throw new SnapshotError(this.name, "ends early");
      done += n;
    }
    return out;
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed: nothing to release.
    }
  }
}
