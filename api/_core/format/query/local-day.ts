/**
 * A local day at the cinemas (`date`, `dayStartsAt`; decision: local dates): which start-time codes
 * fall on it at each cinema. At a cinema with a time zone the day is one window of instants, from
 * the first instant its clocks show the day's start to the next day's; at a cinema without one a
 * showtime's day is read from the offset written in its startsAt, so the window is as wide as
 * offsets go and each record is checked.
 */
import { epochDayOf, instantKeyOfEpochSeconds } from "../primitives/date-time.js";
import type { SnapshotDictionaries } from "../read/snapshot-dictionaries.js";
import type { SnapshotZones } from "../read/snapshot-zones.js";

export interface DaySelection {
  /** YYYY-MM-DD, valid. */
  date: string;
  /** Minutes after midnight the day starts (dayStartsAt), 0..359. */
  startMinutes: number;
}

/** Written offsets lie within −12:00..+14:00 (and a little room): the widest a day without a zone can reach. */
const WRITTEN_OFFSET_REACH = 15 * 3600;

export class LocalDay {
  /** The day's start as if local time were UTC, in epoch seconds. */
  private readonly localStart: number;
  private readonly localDayMinutes: number;
  /** Code windows [lo, hi) by zone, made when first asked. */
  private readonly windows = new Map<number, [number, number]>();
  private broad: [number, number] | undefined;

  constructor(
    private readonly zones: SnapshotZones,
    private readonly dictionaries: SnapshotDictionaries,
    day: DaySelection,
  ) {
    const epochDay = epochDayOf(day.date);
    this.localStart = epochDay * 86_400 + day.startMinutes * 60;
    this.localDayMinutes = epochDay * 1440 + day.startMinutes;
  }

  private codeAt(epochSeconds: number): number {
    return this.dictionaries.firstCodeAtOrAfter(instantKeyOfEpochSeconds(epochSeconds));
  }

  /** The start-time codes [lo, hi) of the day in zone z. */
  private window(z: number): [number, number] {
    let window = this.windows.get(z);
    if (!window) {
      const start = this.zones.startOf(z, this.localStart);
      const end = this.zones.startOf(z, this.localStart + 86_400);
      this.windows.set(z, (window = [this.codeAt(start), this.codeAt(end)]));
    }
    return window;
  }

  /** The codes any written offset's day can reach: a superset for a cinema without a zone. */
  private broadWindow(): [number, number] {
    this.broad ??= [
      this.codeAt(this.localStart - WRITTEN_OFFSET_REACH),
      this.codeAt(this.localStart + 86_400 + WRITTEN_OFFSET_REACH),
    ];
    return this.broad;
  }

  /** Whether cinema c's codes window is exact (it has a zone), so its records need no check one by one. */
  isExactAt(c: number): boolean {
    return this.zones.zoneOf(c) >= 0;
  }

  /** The start-time codes [lo, hi) the day can hold at cinema c: exact with a zone, a superset without. */
  codesAt(c: number): [number, number] {
    const z = this.zones.zoneOf(c);
    return z >= 0 ? this.window(z) : this.broadWindow();
  }

  /** The codes [lo, hi) the day can hold at cinemas of zone key k (zone index + 1; 0, no zone). */
  codesInZoneKey(k: number): [number, number] {
    return k > 0 ? this.window(k - 1) : this.broadWindow();
  }

  /** The zone keys of `cinemas` (every key when undefined), ascending. */
  zoneKeysOf(cinemas: ArrayLike<number> | undefined): number[] {
    if (cinemas === undefined) return Array.from({ length: this.zones.names.length + 1 }, (_, k) => k);
    const keys = new Set<number>();
    for (let i = 0; i < cinemas.length; i++) keys.add(this.zones.zoneOf(cinemas[i]!) + 1);
    return [...keys].sort((a, b) => a - b);
  }

  /** The codes [lo, hi) the day can hold at any of `cinemas` (every cinema when undefined). */
  codesAtAny(cinemas: ArrayLike<number> | undefined): [number, number] {
    let [lo, hi] = [Infinity, -Infinity];
    const widen = ([a, b]: [number, number]) => {
      if (a < b) [lo, hi] = [Math.min(lo, a), Math.max(hi, b)];
    };
    if (cinemas === undefined) {
      for (let z = 0; z < this.zones.names.length; z++) widen(this.window(z));
      if (this.zones.hasCinemaWithoutZone) widen(this.broadWindow());
    } else {
      for (let i = 0; i < cinemas.length; i++) widen(this.codesAt(cinemas[i]!));
    }
    return lo < hi ? [lo, hi] : [0, 0];
  }

  /** Whether a showtime at cinema c with start-time code `code` starts on the day. */
  holds(c: number, code: number): boolean {
    const z = this.zones.zoneOf(c);
    if (z >= 0) {
      const [lo, hi] = this.window(z);
      return code >= lo && code < hi;
    }
    const wall = this.dictionaries.writtenWallMinutes(code);
    return wall >= this.localDayMinutes && wall < this.localDayMinutes + 1440;
  }
}
