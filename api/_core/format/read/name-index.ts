/**
 * A resource's word index for name search (layout/sections.ts searchSections), resident once a
 * search first needs it: the words, ascending, each with its records; and each record's name key.
 */
import { type SearchResource, searchSections } from "../layout/sections.js";
import { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import { PACKED_HEADER, readPacked } from "../primitives/packed.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";

export class NameIndex {
  private readonly words: Dictionary;
  private readonly starts: Uint32Array;
  private readonly records: Uint8Array;
  private readonly width: number;
  private readonly names: Dictionary;

  constructor(index: PagedFile, resource: SearchResource, recordCount: number) {
    const sections = searchSections(resource);
    const fail = (why: string) => new SnapshotError(index.file.name, `its ${resource} word index ${why}`);
    try {
      this.words = new Dictionary(index.readSection(sections.words));
      this.names = new Dictionary(index.readSection(sections.names));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("is not a dictionary");
    }
    this.starts = index.readUint32Section(sections.postings);
    const packed = index.readSection(sections.records);
    this.width = packed[0] ?? 0;
    this.records = packed.subarray(PACKED_HEADER);
    const total = this.starts[this.words.count];
    if (this.names.count !== recordCount || this.starts.length !== this.words.count + 1)
      throw fail("does not match its records");
    if (this.width < 1 || this.width > 4 || total === undefined || this.records.length !== total * this.width)
      throw fail("has postings of the wrong size");
    for (let w = 0; w < this.words.count; w++)
      if (this.starts[w]! > this.starts[w + 1]!) throw fail("has postings out of order");
    for (let i = 0; i < total; i++)
      if (readPacked(this.records, this.width, i) >= recordCount) throw fail("names a record that does not exist");
  }

  /** Word i: a search decodes the few dozen its binary searches visit. */
  private word(i: number): string {
    return this.words.text(i);
  }

  /** The records having a word that starts with `prefix`, ascending, each once. */
  recordsWithPrefix(prefix: string): Uint32Array {
    const n = this.words.count;
    const lo = lowerBound(n, (i) => this.word(i) >= prefix);
    const hi = lo + lowerBound(n - lo, (i) => !this.word(lo + i).startsWith(prefix));
    if (hi - lo === 1) return this.postings(lo);
    const found = new Set<number>();
    for (let w = lo; w < hi; w++) for (const record of this.postings(w)) found.add(record);
    return Uint32Array.from(found).sort();
  }

  private postings(w: number): Uint32Array {
    const [start, end] = [this.starts[w]!, this.starts[w + 1]!];
    const out = new Uint32Array(end - start);
    for (let i = start; i < end; i++) out[i - start] = readPacked(this.records, this.width, i);
    return out;
  }

  /** Record i's name key: its name's words, single spaces between (layout/name-words.ts nameKeyOf). */
  nameKey(i: number): string {
    return this.names.text(i);
  }
}
