/** Writes a keyed pack (api/_core/keyed-pack.ts): values appended in order, the index at the end. */
import { encodePackIndex, type PackSlot } from "../api/_core/keyed-pack.js";
import type { KeyedPackFiles } from "../api/_core/layout.js";
import type { OutputWriter } from "./context.js";

export class KeyedPackWriter {
  private readonly data: ReturnType<OutputWriter["openAppend"]>;
  private readonly entries: Array<{ key: Buffer } & PackSlot> = [];
  private offset = 0;

  constructor(
    private readonly output: OutputWriter,
    private readonly files: KeyedPackFiles,
  ) {
    this.data = output.openAppend(files.data);
  }

  add(key: Buffer, value: Buffer): void {
    this.entries.push({ key, offset: this.offset, length: value.length });
    this.data.append(value);
    this.offset += value.length;
  }

  /** Closes the data file and writes the index. */
  finish(): void {
    this.data.close();
    this.output.write(this.files.index, encodePackIndex(this.entries));
  }
}
