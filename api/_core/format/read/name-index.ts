/**
 * A resource's word index for name search (layout/sections.ts searchSections), resident once a
 * search first needs it: the words, ascending, each with its records; each record's name key; and
 * the records in name-key order.
 */
import { searchSections, type WordIndexOwner } from "../layout/sections.js";
import { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import { PACKED_HEADER, readPacked } from "../primitives/packed.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";

function packed(index: PagedFile, name: string): { values: Uint8Array; width: number } {
  const bytes = index.readSection(name);
  return { values: bytes.subarray(PACKED_HEADER), width: bytes[0] ?? 0 };
}

/** Words [lo, hi) of an index, in its order. */
export interface WordRange {
  lo: number;
  hi: number;
}

/** Words [lo, hi) of an index, each `cost` (edits) from a query word. */
export interface CostedRange extends WordRange {
  cost: number;
}

export class NameIndex {
  readonly recordCount: number;
  private readonly words: Dictionary;
  private readonly starts: Uint32Array;
  private readonly records: { values: Uint8Array; width: number };
  private readonly names: Dictionary;
  /** Record indexes in name-key order, and each record's place in it. */
  readonly byName: Uint32Array;
  readonly namePlace: Uint32Array;
  /** recordsInAll's and recordsNearAll's marks, made on the first call, and the highest stamp given. */
  private stamps: Uint32Array | undefined;
  private stamped = 0;
  /** recordsNearAll's costs per record: the least of the word being met, the sum of those before. */
  private costs: { least: Uint8Array; sum: Uint8Array } | undefined;

  constructor(index: PagedFile, resource: WordIndexOwner, recordCount: number) {
    const sections = searchSections(resource);
    const fail = (why: string) => new SnapshotError(index.file.name, `its ${resource} word index ${why}`);
    this.recordCount = recordCount;
    try {
      this.words = new Dictionary(index.readSection(sections.words));
      this.names = new Dictionary(index.readSection(sections.names));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("is not a dictionary");
    }
    this.starts = index.readUint32Section(sections.postings);
    this.records = packed(index, sections.records);
    const { width, values } = this.records;
    const total = this.starts[this.words.count];
    if (this.names.count !== recordCount || this.starts.length !== this.words.count + 1)
      throw fail("does not match its records");
    if (width < 1 || width > 4 || total === undefined || values.length !== total * width)
      throw fail("has postings of the wrong size");
    for (let w = 0; w < this.words.count; w++)
      if (this.starts[w]! > this.starts[w + 1]!) throw fail("has postings out of order");
    for (let i = 0; i < total; i++)
      if (readPacked(values, width, i) >= recordCount) throw fail("names a record that does not exist");
    const order = packed(index, sections.byName);
    if (order.width < 1 || order.width > 4 || order.values.length !== recordCount * order.width)
      throw fail("has a name order of the wrong size");
    this.byName = new Uint32Array(recordCount);
    this.namePlace = new Uint32Array(recordCount).fill(recordCount);
    for (let i = 0; i < recordCount; i++) {
      const record = readPacked(order.values, order.width, i);
      if (record >= recordCount || this.namePlace[record] !== recordCount)
        throw fail("has a name order that is not one");
      this.byName[i] = record;
      this.namePlace[record] = i;
    }
  }

  /** Word i: a search decodes the few dozen its binary searches visit. */
  private word(i: number): string {
    return this.words.text(i);
  }

  /** The words, ascending: near-spelling search reads them all (query/near-spelling.ts). */
  get wordDictionary(): Dictionary {
    return this.words;
  }

  /** The words [lo, hi) that start with `prefix`. */
  prefixRange(prefix: string): WordRange {
    const n = this.words.count;
    const lo = lowerBound(n, (i) => this.word(i) >= prefix);
    const hi = lo + lowerBound(n - lo, (i) => !this.word(lo + i).startsWith(prefix));
    return { lo, hi };
  }

  /** Marks (sets to 1) every record having one of the words [lo, hi). */
  markWords({ lo, hi }: WordRange, marks: Uint8Array): void {
    const { values, width } = this.records;
    for (let i = this.starts[lo] ?? 0, end = this.starts[hi] ?? 0; i < end; i++)
      marks[readPacked(values, width, i)] = 1;
  }

  /** How many postings the words [lo, hi) have: what marking them costs. */
  postingsOf({ lo, hi }: WordRange): number {
    return (this.starts[hi] ?? 0) - (this.starts[lo] ?? 0);
  }

  /**
   * The records having one of the words of every range, each once, in no set order. The work is the
   * ranges' postings, not the records: a place search asks 60,000 places for a few hundred (a record
   * is stamped with how many ranges it has met; stamps of earlier calls are lower than this call's).
   */
  recordsInAll(ranges: readonly WordRange[]): number[] {
    const [stamps, base] = this.stampsFor(ranges.length);
    const { values, width } = this.records;
    // The range of fewest postings first: later ones only carry on what it found.
    const ordered = [...ranges].sort((a, b) => this.postingsOf(a) - this.postingsOf(b));
    ordered.forEach(({ lo, hi }, k) => {
      for (let i = this.starts[lo] ?? 0, end = this.starts[hi] ?? 0; i < end; i++) {
        const record = readPacked(values, width, i);
        if (k === 0 || stamps[record] === base + k) stamps[record] = base + k + 1;
      }
    });
    const found: number[] = [];
    const all = base + ordered.length;
    const last = ordered.at(-1);
    if (!last) return found;
    for (let i = this.starts[last.lo] ?? 0, end = this.starts[last.hi] ?? 0; i < end; i++) {
      const record = readPacked(values, width, i);
      if (stamps[record] !== all) continue;
      stamps[record] = all + 1;
      found.push(record);
    }
    return found;
  }

  /**
   * The marks and a base above every stamp given before, for a call stamping up to `base + calls + 1`
   * (0 again, all marks cleared, before the stamps would pass 2^32).
   */
  private stampsFor(calls: number): [Uint32Array, number] {
    const stamps = (this.stamps ??= new Uint32Array(this.recordCount));
    if (this.stamped > 0xffff_ffff - calls - 2) {
      stamps.fill(0);
      this.stamped = 0;
    }
    const base = this.stamped;
    this.stamped += calls + 1;
    return [stamps, base];
  }

  /**
   * Near spellings (query/near-spelling.ts): the records having, for every group, one of its words,
   * each once and in no set order, with the sum over the groups of the least cost among the group's
   * words it has. As recordsInAll, the work is the groups' postings, not the records: the group of
   * fewest postings first, each later one stamping only the records met by all before it.
   */
  recordsNearAll(groups: ReadonlyArray<readonly CostedRange[]>): { records: number[]; costs: number[] } {
    const [stamps, base] = this.stampsFor(groups.length);
    const { least, sum } = (this.costs ??= {
      least: new Uint8Array(this.recordCount),
      sum: new Uint8Array(this.recordCount),
    });
    const { values, width } = this.records;
    const postings = (group: readonly CostedRange[]) => group.reduce((n, range) => n + this.postingsOf(range), 0);
    const ordered = [...groups].sort((a, b) => postings(a) - postings(b));
    let met: number[] = [];
    for (let k = 0; k < ordered.length; k++) {
      // Stamped `before`: met by every group so far; `now`: by this one too, its least cost in `least`.
      const [before, now] = [base + k, base + k + 1];
      for (const { lo, hi, cost } of ordered[k]!)
        for (let i = this.starts[lo] ?? 0, end = this.starts[hi] ?? 0; i < end; i++) {
          const record = readPacked(values, width, i);
          const stamp = stamps[record];
          if (stamp === now) {
            if (cost < least[record]!) least[record] = cost;
          } else if (k === 0 || stamp === before) {
            stamps[record] = now;
            least[record] = cost;
            if (k === 0) met.push(record);
          }
        }
      if (k > 0) met = met.filter((record) => stamps[record] === now);
      // At most 34 edits in all (two per six letters of a 100-character query): a byte holds the sum.
      for (const record of met) sum[record] = (k === 0 ? 0 : sum[record]!) + least[record]!;
      if (met.length === 0) break;
    }
    return { records: met, costs: met.map((record) => sum[record]!) };
  }

  /** Record i's name key: its name's words, single spaces between (layout/name-words.ts nameKeyOf). */
  nameKey(i: number): string {
    return this.names.text(i);
  }

  /** The places in name order [lo, hi) of the names starting with `key`, and where those equal to it end. */
  namesStartingWith(key: string): { lo: number; equalEnd: number; hi: number } {
    const n = this.recordCount;
    const at = (i: number) => this.names.text(this.byName[i]!);
    const lo = lowerBound(n, (i) => at(i) >= key);
    const hi = lo + lowerBound(n - lo, (i) => !at(lo + i).startsWith(key));
    // An equal key sorts before every longer one that starts with it.
    const equalEnd = lo + lowerBound(hi - lo, (i) => at(lo + i) !== key);
    return { lo, equalEnd, hi };
  }
}
