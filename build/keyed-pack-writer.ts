/** Writes a keyed pack (api/_core/keyed-pack.ts): values appended in order, the index at the end. */
import { encodePackIndex, KEY_BYTES } from "../api/_core/keyed-pack.js";
import type { KeyedPackFiles } from "../api/_core/layout.js";
import type { OutputWriter } from "./context.js";

export class KeyedPackWriter {
  private readonly data: ReturnType<OutputWriter["openAppend"]>;
  // Hundreds of thousands of entries: an object each would sit in the heap for the whole render.
  private keys = Buffer.alloc(KEY_BYTES * 1024);
  private slots = new Float64Array(2 * 1024);
  private count = 0;
  private offset = 0;

  constructor(
    private readonly output: OutputWriter,
    private readonly files: KeyedPackFiles,
  ) {
    this.data = output.openAppend(files.data);
  }

  add(key: Buffer, value: Buffer): void {
    if (this.count * KEY_BYTES === this.keys.length) this.grow();
    key.copy(this.keys, this.count * KEY_BYTES);
    this.slots[2 * this.count] = this.offset;
    this.slots[2 * this.count + 1] = value.length;
    this.count++;
    this.data.append(value);
    this.offset += value.length;
  }

  /** Closes the data file and writes the index. */
  finish(): void {
    this.data.close();
    const entries = Array.from({ length: this.count }, (_, i) => ({
      key: this.keys.subarray(i * KEY_BYTES, (i + 1) * KEY_BYTES),
      offset: this.slots[2 * i]!,
      length: this.slots[2 * i + 1]!,
    }));
    this.output.write(this.files.index, encodePackIndex(entries));
  }

  private grow(): void {
    const keys = Buffer.alloc(this.keys.length * 2);
    this.keys.copy(keys);
    const slots = new Float64Array(this.slots.length * 2);
    slots.set(this.slots);
    this.keys = keys;
    this.slots = slots;
  }
}
