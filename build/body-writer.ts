/**
 * Writes precomputed bodies into the body pack: encoded on the body pool, appended in
 * submission order (so the snapshot is deterministic), with bounded memory in flight.
 */
import type { BodyPart, BodyPool } from "./body-pool.js";
import type { KeyedPackWriter } from "./keyed-pack-writer.js";

const MAX_IN_FLIGHT = 1024;

export class BodyWriter {
  private readonly pending: Promise<void>[] = [];
  private tail: Promise<void> = Promise.resolve();
  private count = 0;

  constructor(
    private readonly pack: KeyedPackWriter,
    private readonly pool: BodyPool,
    private readonly onCount?: (count: number) => void,
    /** Other work for the main thread, a slice per call (false when none is left), done while the pool is busy. */
    private readonly whileWaiting?: () => boolean,
  ) {}

  /** Queues one body, given as parts; resolves at once unless too much is in flight. */
  async add(key: Buffer, parts: BodyPart[]): Promise<void> {
    const file = this.pool.encode(parts);
    this.tail = this.tail.then(async () => this.pack.add(key, await file));
    this.pending.push(this.tail);
    if (++this.count % 500 === 0) this.onCount?.(this.count);
    if (this.pending.length >= MAX_IN_FLIGHT) {
      this.pool.flush();
      this.whileWaiting?.();
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
