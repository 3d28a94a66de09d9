/**
 * Valid showtimes held as the validation workers sent them (validate-protocol.ts), not yet as
 * entries: a build with markets makes a market's entries only when it builds that market (decision:
 * markets). An entry costs ~310 bytes of heap (an object of 14 fields, its own strings, its slot in
 * an array), a held showtime ~210 (its own strings, their slots, 10 int32s): at 7.4M showtimes every
 * entry at once was the build's peak RSS. Link and partition read each showtime as an entry made
 * for the moment and let go; `take` makes a market's entries for good, the same entries validation
 * would have made (showtimeEntryAt), and lets go of each slice once all its showtimes are taken.
 */
import type { HeldEntries, Interner, ShowtimeEntry } from "./entries.js";
import { SHOWTIME_SHAPE, type ShowtimeShape } from "./showtime-shape.js";
import { countOf, type ShowtimeSlice, showtimeEntryAt } from "./validate-protocol.js";

export class HeldShowtimes implements HeldEntries {
  private readonly slices: Array<ShowtimeSlice | undefined> = [];
  /** Each slice's first position, ascending. */
  private readonly starts: number[] = [];
  /** Each slice's showtimes not yet taken: at 0 the slice is let go. */
  private readonly untaken: number[] = [];
  private count = 0;
  /** Which positions are taken, made at the first take. */
  private taken: Uint8Array | undefined;

  constructor(
    private readonly interner: Interner,
    private readonly shape: ShowtimeShape = SHOWTIME_SHAPE,
  ) {}

  /** Showtimes held or taken: positions run from 0 to length - 1, in the order added. */
  get length(): number {
    return this.count;
  }

  /** Holds a result's showtimes after those held already; returns how many. */
  add(slice: ShowtimeSlice): number {
    const count = countOf(slice, this.shape);
    if (count === 0) return 0;
    this.slices.push(slice);
    this.starts.push(this.count);
    this.untaken.push(count);
    this.count += count;
    return count;
  }

  /** Every showtime in order, each entry made anew (not kept: link and partition read them so). */
  *[Symbol.iterator](): Iterator<ShowtimeEntry> {
    for (const [s, slice] of this.slices.entries()) {
      if (!slice) throw new Error("held showtimes: read after some were taken");
      const count = (s + 1 < this.starts.length ? this.starts[s + 1]! : this.count) - this.starts[s]!;
      for (let k = 0; k < count; k++) yield showtimeEntryAt(slice, k, this.interner, this.shape);
    }
  }

  /**
   * The entries at `positions` (ascending, none taken before), made for good; every slice whose
   * showtimes are then all taken is let go. Throws, taking none, on any other position.
   */
  take(positions: readonly number[]): ShowtimeEntry[] {
    const taken = (this.taken ??= new Uint8Array(this.count));
    positions.forEach((position, i) => {
      if (!(position > (positions[i - 1] ?? -1) && position < this.count))
        throw new Error(`held showtimes: position ${position} out of order or range`);
      if (taken[position]) throw new Error(`held showtimes: position ${position} taken twice`);
    });
    const entries: ShowtimeEntry[] = [];
    let s = 0;
    for (const position of positions) {
      taken[position] = 1;
      while (s + 1 < this.starts.length && this.starts[s + 1]! <= position) s++;
      entries.push(showtimeEntryAt(this.slices[s]!, position - this.starts[s]!, this.interner, this.shape));
      if (--this.untaken[s]! === 0) this.slices[s] = undefined;
    }
    return entries;
  }

  /** Positions 0 to length - 1: every showtime. */
  all(): number[] {
    return Array.from({ length: this.count }, (_, i) => i);
  }
}
