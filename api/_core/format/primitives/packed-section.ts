/** A packed array (packed.ts) inside a paged file, read a range at a time through its page cache. */
import { SnapshotError } from "./errors.js";
import { PACKED_HEADER, readPacked } from "./packed.js";
import type { PagedFile, Section } from "./paged-file.js";

/** A packed array section of the index (packed.ts), read a range at a time through the page cache. */
export class PackedSection {
  readonly width: number;
  readonly count: number;

  constructor(
    private readonly index: PagedFile,
    private readonly section: Section,
  ) {
    this.width = index.read(section.offset, 1)[0]!;
    if (this.width < 1 || this.width > 4)
      throw new SnapshotError(index.file.name, `section at ${section.offset} has width ${this.width}`);
    this.count = (section.length - PACKED_HEADER) / this.width;
    if (!Number.isInteger(this.count))
      throw new SnapshotError(index.file.name, `section at ${section.offset} has a partial value`);
  }

  /** Values [start, end). */
  range(start: number, end: number): Uint32Array {
    if (start < 0 || end > this.count || start > end)
      throw new SnapshotError(this.index.file.name, `values ${start}..${end} are past a position list`);
    const bytes = this.index.read(this.section.offset + PACKED_HEADER + start * this.width, (end - start) * this.width);
    const out = new Uint32Array(end - start);
    for (let i = 0; i < out.length; i++) out[i] = readPacked(bytes, this.width, i);
    return out;
  }

  at(i: number): number {
    return this.range(i, i + 1)[0]!;
  }
}
