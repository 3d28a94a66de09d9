/**
 * Each cinema's films per local day (layout/sections.ts DAY_SECTIONS), resident once discovery
 * first needs them: a row per (cinema, day, film) with the film's count of showtimes there that day
 * and its first one. Every value is checked when the rows are read, so a corrupt section is a
 * SnapshotError (503), never a wrong count.
 */
import { DAY_SECTIONS } from "../layout/sections.js";
import { SnapshotError } from "../primitives/errors.js";
import { PACKED_HEADER, readPacked } from "../primitives/packed.js";
import type { PagedFile } from "../primitives/paged-file.js";

function column(index: PagedFile, name: string, rows: number): Uint32Array {
  const bytes = index.readSection(name);
  const width = bytes[0] ?? 0;
  if (width < 1 || width > 4 || bytes.length !== PACKED_HEADER + rows * width)
    throw new SnapshotError(index.file.name, `its section ${name} does not hold one value per row`);
  const values = bytes.subarray(PACKED_HEADER);
  const out = new Uint32Array(rows);
  for (let i = 0; i < rows; i++) out[i] = readPacked(values, width, i);
  return out;
}

/** The first row in [lo, hi) of `days` (ascending) whose day is past `day`; hi when none is. */
function firstPast(days: Uint32Array, lo: number, hi: number, day: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid]! > day) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class ShowtimeDays {
  /** The earliest day (days since 1970-01-01); rows hold days after it. */
  readonly base: number;
  readonly day: Uint32Array;
  readonly film: Uint32Array;
  readonly count: Uint32Array;
  /** The first showtime's record number (by-cinema clustering) and its start-time code. */
  readonly first: Uint32Array;
  readonly firstStart: Uint32Array;
  private readonly starts: Uint32Array;

  constructor(index: PagedFile, counts: { cinemas: number; films: number; showtimes: number; startCodes: number }) {
    const fail = (why: string) => new SnapshotError(index.file.name, `its films by day ${why}`);
    const directory = index.readSection(DAY_SECTIONS.days);
    if (directory.length !== 4 + 4 * (counts.cinemas + 1)) throw fail("do not match the cinemas");
    const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
    this.base = view.getInt32(0, true);
    this.starts = Uint32Array.from({ length: counts.cinemas + 1 }, (_, c) => view.getUint32(4 + 4 * c, true));
    const rows = this.starts[counts.cinemas]!;
    this.day = column(index, DAY_SECTIONS.day, rows);
    this.film = column(index, DAY_SECTIONS.film, rows);
    this.count = column(index, DAY_SECTIONS.count, rows);
    this.first = column(index, DAY_SECTIONS.first, rows);
    this.firstStart = column(index, DAY_SECTIONS.firstStart, rows);
    for (let c = 0; c < counts.cinemas; c++) {
      const [start, end] = [this.starts[c]!, this.starts[c + 1]!];
      if (end < start || end > rows) throw fail("have a cinema whose rows are out of order");
      for (let i = start; i < end; i++) {
        const ordered =
          i === start ||
          this.day[i - 1]! < this.day[i]! ||
          (this.day[i - 1] === this.day[i] && this.film[i - 1]! < this.film[i]!);
        if (!ordered || this.film[i]! >= counts.films || this.count[i] === 0) throw fail("hold an impossible row");
        if (this.first[i]! >= counts.showtimes || this.firstStart[i]! >= counts.startCodes)
          throw fail("name a showtime that does not exist");
      }
    }
  }

  /** Cinema c's rows [start, end), in (day, film) order. */
  rowsOf(c: number): [number, number] {
    return [this.starts[c]!, this.starts[c + 1]!];
  }

  /**
   * Cinema c's rows of one local day (days since 1970-01-01). Searched in place, not by lowerBound
   * and a closure: discovery near a city asks it of every cinema within the radius, hundreds a request.
   */
  rowsOn(c: number, epochDay: number): [number, number] {
    const [start, end] = [this.starts[c]!, this.starts[c + 1]!];
    const day = epochDay - this.base;
    if (day < 0) return [start, start];
    // Days are whole numbers: the first row of the day is the first past the day before.
    const first = firstPast(this.day, start, end, day - 1);
    return [first, firstPast(this.day, first, end, day)];
  }
}
