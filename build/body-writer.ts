/**
 * Writes precomputed bodies into the body pack: compressed on the gzip pool, appended in
 * submission order (so the snapshot is deterministic), with bounded memory in flight.
 */
import { composeBodyFile } from "../api/_core/body-file.js";
import type { GzipPool } from "./gzip-pool.js";
import type { KeyedPackWriter } from "./keyed-pack-writer.js";

const MAX_IN_FLIGHT = 1024;

export class BodyWriter {
  private readonly pending: Promise<void>[] = [];
  private tail: Promise<void> = Promise.resolve();
  private count = 0;

  constructor(
    private readonly pack: KeyedPackWriter,
    private readonly pool: GzipPool,
    private readonly onCount?: (count: number) => void,
  ) {}

  /** Queues one body; resolves at once unless too much is in flight. */
  async add(key: Buffer, body: Buffer): Promise<void> {
    const compressed = this.pool.gzip(body);
    this.tail = this.tail.then(async () => this.pack.add(key, composeBodyFile(body, await compressed)));
    this.pending.push(this.tail);
    if (++this.count % 500 === 0) this.onCount?.(this.count);
    if (this.pending.length >= MAX_IN_FLIGHT) {
      this.pool.flush();
      await this.pending[MAX_IN_FLIGHT / 2];
      this.pending.splice(0, MAX_IN_FLIGHT / 2 + 1);
    }
  }

  /** Waits until every queued body is written. */
  async drain(): Promise<void> {
    this.pool.flush();
    await this.tail;
    this.pending.length = 0;
  }
}
