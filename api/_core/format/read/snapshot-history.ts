/**
 * The changes history of an open snapshot (layout/history.ts): which records changed after a
 * generation, and the deletions since it. Read on first use (only the changes feed needs it).
 */
import {
  CHANGED_CHUNK,
  checkHistoryMeta,
  HISTORY_META,
  HISTORY_TYPES,
  type HistoryMeta,
  type HistoryType,
  historySections,
  SHOWTIMES_CHANGED_MAX,
} from "../layout/history.js";
import { SnapshotError } from "../primitives/errors.js";
import { PackedSection } from "../primitives/packed-section.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";
import { TextChunks } from "../primitives/text-chunks.js";

/** The deletions of one type since the horizon, in generation order. */
export interface Deletions {
  readonly count: number;
  /** The index of the first deletion after generation g. */
  firstAfter(g: number): number;
  /** Deletion i as the feed writes it. */
  text(i: number): Uint8Array;
  /** The generation deletion i happened in. */
  generation(i: number): number;
}

/** Changed-after values per record, relative to the horizon (0: at or before it). */
interface ChangedValues {
  count: number;
  range(start: number, end: number): ArrayLike<number>;
}

export class SnapshotHistory {
  readonly meta: HistoryMeta;
  private readonly changed = new Map<HistoryType, ChangedValues>();
  private readonly deletions = new Map<HistoryType, Deletions>();
  /** Per CHANGED_CHUNK showtime records, the largest relative value: whole chunks are skipped on it. */
  private readonly showtimeMaxima: Uint32Array;

  constructor(
    private readonly file: PagedFile,
    counts: Record<HistoryType, number>,
  ) {
    const fail = (why: string) => new SnapshotError(file.file.name, why);
    let meta: unknown;
    try {
      meta = JSON.parse(Buffer.from(file.readSection(HISTORY_META)).toString("utf8"));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("its history is not JSON");
    }
    const problem = checkHistoryMeta(meta);
    if (problem) throw fail(`its history ${problem}`);
    this.meta = meta as HistoryMeta;
    for (const type of HISTORY_TYPES) {
      const section = new PackedSection(file, file.section(historySections(type).changed));
      if (section.count !== counts[type]) throw fail(`its history of ${type} does not match the ${type}`);
      // Cinemas, films and attributes are few: their values are kept resident.
      this.changed.set(type, type === "showtimes" ? section : resident(section));
    }
    this.showtimeMaxima = new PackedSection(file, file.section(SHOWTIMES_CHANGED_MAX)).range(
      0,
      Math.ceil(counts.showtimes / CHANGED_CHUNK),
    );
  }

  /**
   * Whether a token of generation g can be answered: a generation of this history the snapshot still holds changes
   * for.
   */
  answers(g: number): boolean {
    return g >= this.meta.horizon && g <= this.meta.generation;
  }

  /**
   * Writes into `into` the records of a type (store order) at or after `from` that changed after
   * generation g, at most `into.length` of them; returns how many. Showtimes are read a chunk at
   * a time, and a chunk whose summary says nothing in it changed is skipped unread.
   */
  changedAfter(type: HistoryType, from: number, g: number, into: Uint32Array): number {
    const values = this.changed.get(type)!;
    const threshold = g - this.meta.horizon;
    const showtimes = type === "showtimes";
    const chunk = showtimes ? CHANGED_CHUNK : Math.max(1, values.count);
    let n = 0;
    for (let i = from; i < values.count && n < into.length; ) {
      const c = Math.floor(i / chunk);
      const end = Math.min(values.count, (c + 1) * chunk);
      if (!showtimes || this.showtimeMaxima[c]! > threshold) {
        const range = values.range(i, end);
        for (let k = 0; k < range.length && n < into.length; k++) if (range[k]! > threshold) into[n++] = i + k;
      }
      i = end;
    }
    return n;
  }

  /** The first record (store order) at or after `from` that changed after generation g; the count when none does. */
  nextChangedAfter(type: HistoryType, from: number, g: number): number {
    const first = new Uint32Array(1);
    return this.changedAfter(type, from, g, first) === 1 ? first[0]! : this.changed.get(type)!.count;
  }

  /** The generation each record of a type last changed in (the horizon for anything at or before it). */
  changedAtAll(type: HistoryType): Uint32Array {
    const values = this.changed.get(type)!;
    const all = Uint32Array.from(values.range(0, values.count));
    for (let i = 0; i < all.length; i++) all[i]! += this.meta.horizon;
    return all;
  }

  /** The deletions of a type the history keeps. */
  deletes(type: HistoryType): Deletions {
    let deletions = this.deletions.get(type);
    if (!deletions) this.deletions.set(type, (deletions = this.readDeletions(type)));
    return deletions;
  }

  private readDeletions(type: HistoryType): Deletions {
    const names = historySections(type);
    const texts = new TextChunks(this.file.readSection(names.deletes));
    const at = new PackedSection(this.file, this.file.section(names.deletesAt)).range(0, texts.count);
    const horizon = this.meta.horizon;
    return {
      count: texts.count,
      firstAfter: (g) => lowerBound(texts.count, (i) => at[i]! + horizon > g),
      text: (i) => texts.entry(i),
      generation: (i) => horizon + at[i]!,
    };
  }
}

function resident(section: PackedSection): ChangedValues {
  const values = section.range(0, section.count);
  return { count: values.length, range: (start, end) => values.subarray(start, end) };
}
