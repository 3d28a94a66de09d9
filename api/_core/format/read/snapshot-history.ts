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

  /** Whether a token of generation g can be answered: a generation of this history the snapshot still holds changes for. */
  answers(g: number): boolean {
    return g >= this.meta.horizon && g <= this.meta.generation;
  }

  /**
   * The first record (store order) at or after `from` that changed after generation g (the count
   * when none does): whole chunks of unchanged showtimes are skipped on their summary.
   */
  nextChangedAfter(type: HistoryType, from: number, g: number): number {
    const values = this.changed.get(type)!;
    const threshold = g - this.meta.horizon;
    let i = from;
    while (i < values.count) {
      if (type === "showtimes") {
        const chunk = Math.floor(i / CHANGED_CHUNK);
        if (this.showtimeMaxima[chunk]! <= threshold) {
          i = (chunk + 1) * CHANGED_CHUNK;
          continue;
        }
      }
      const end = Math.min(
        values.count,
        type === "showtimes" ? (Math.floor(i / CHANGED_CHUNK) + 1) * CHANGED_CHUNK : values.count,
      );
      const range = values.range(i, end);
      for (let k = 0; k < range.length; k++) if (range[k]! > threshold) return i + k;
      i = end;
    }
    return values.count;
  }

  /**
   * Writes into `into` the showtime records (store order) at or after `from` that changed after
   * generation g, at most `into.length` of them; returns how many. Reads each chunk's values once,
   * where calling nextChangedAfter per record would read a chunk per record.
   */
  showtimesChangedAfter(from: number, g: number, into: Uint32Array): number {
    const values = this.changed.get("showtimes")!;
    const threshold = g - this.meta.horizon;
    let n = 0;
    for (let i = from; i < values.count && n < into.length; ) {
      const chunk = Math.floor(i / CHANGED_CHUNK);
      const end = Math.min(values.count, (chunk + 1) * CHANGED_CHUNK);
      if (this.showtimeMaxima[chunk]! > threshold) {
        const range = values.range(i, end);
        for (let k = 0; k < range.length && n < into.length; k++) if (range[k]! > threshold) into[n++] = i + k;
      }
      i = end;
    }
    return n;
  }

  /** The generation each record of a type last changed in (as changedAt), read at once. */
  changedAtAll(type: HistoryType): Uint32Array {
    const values = this.changed.get(type)!;
    const all = Uint32Array.from(values.range(0, values.count));
    for (let i = 0; i < all.length; i++) all[i]! += this.meta.horizon;
    return all;
  }

  /** The generation record i last changed in (the horizon for anything at or before it). */
  changedAt(type: HistoryType, i: number): number {
    return this.meta.horizon + this.changed.get(type)!.range(i, i + 1)[0]!;
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
