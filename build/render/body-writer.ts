/**
 * Writes stored bodies: encoded on the body pool, added in submission order (so the snapshot is
 * deterministic), with bounded memory in flight.
 */
import type { StoredBodyWriter } from "../encode/stored-body-writer.js";
import type { BodyPool } from "./body-pool.js";

const MAX_IN_FLIGHT = 1024;

export class BodyWriter {
  private readonly pending: Promise<void>[] = [];
  private tail: Promise<void> = Promise.resolve();
  count = 0;

  constructor(
    private readonly bodies: StoredBodyWriter,
    private readonly pool: BodyPool,
    private readonly onCount?: (count: number) => void,
  ) {}

  /** Queues one body; resolves at once unless too much is in flight. */
  async add(key: Buffer, body: Uint8Array): Promise<void> {
    const encoded = this.pool.encode(body);
    this.tail = this.tail.then(async () => this.bodies.add(key, await encoded));
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
