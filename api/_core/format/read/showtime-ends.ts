/**
 * A showtime's end (decision: showtime ends): its start plus its film's running time, derived when
 * a record is rendered from what the snapshot already holds (the start's text, a running time per
 * film, the cinema's zone offsets), so it costs no stored byte per showtime. It is written as its
 * start is: the same precision (`:ss`, the fraction) and the same zone, but for a start written
 * with the offset its cinema's zone has then, whose end takes the zone's offset at the end (a
 * showing across a change of summer time). Everything is integer arithmetic on the text's bytes:
 * no Date, no string, per record.
 */
import { plainSections } from "../layout/sections.js";
import { type ZonePieces, offsetAt } from "../layout/zone-days.js";
import { civilFromDays, daysFromCivil } from "../primitives/date-time.js";
import type { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import type { PagedFile } from "../primitives/paged-file.js";
import type { SnapshotZones } from "./snapshot-zones.js";
import { SHOWTIME_TEXTS } from "./showtime-texts.js";

const ZERO = 0x30;
const Z = 0x5a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const COLON = 0x3a;
const T = 0x54;
/** The most bytes an end adds beyond its start's text: `YYYY-MM-DDThh:mm` is the start's, ±hh:mm may replace Z. */
export const END_SLACK = 8;
const MEMBER_OPEN = Buffer.from(SHOWTIME_TEXTS.endsAtOpen, "latin1");
const MEMBER_CLOSE = SHOWTIME_TEXTS.endsAtClose.charCodeAt(0);
/** The most bytes the member adds beyond its start's text. */
export const END_MEMBER_SLACK = MEMBER_OPEN.length + END_SLACK + 1;

const d2 = (b: Uint8Array, i: number) => (b[i]! - ZERO) * 10 + b[i + 1]! - ZERO;

function put2(out: Uint8Array, at: number, n: number): void {
  out[at] = ZERO + ((n / 10) | 0);
  out[at + 1] = ZERO + (n % 10);
}

/**
 * Writes the end of a start written in `text[start, end)` (a valid spec date-time) `minutes` later
 * into `out` at `at`, for a cinema in the zone `pieces` (undefined: none); returns where it ends, or
 * `at` when the end cannot be written in the spec's form (past the year 9999). `out` needs room for
 * the start's length plus END_SLACK. The usual end, the same day in the start's offset, copies the
 * start's date and computes its time alone.
 */
export function writeEnd(
  text: Uint8Array,
  start: number,
  end: number,
  minutes: number,
  pieces: ZonePieces | undefined,
  out: Uint8Array,
  at: number,
): number {
  const utc = text[end - 1] === Z;
  const zoneStart = end - (utc ? 1 : 6);
  const written = utc ? 0 : (text[zoneStart] === MINUS ? -60 : 60) * (d2(text, zoneStart + 1) * 60 + d2(text, end - 2));
  // Minutes from the start's local midnight to the end, in the offset the start is written with.
  let clock = d2(text, start + 11) * 60 + d2(text, start + 14) + minutes;
  let shift = 0;
  // A zone whose offset changes within the snapshot's days (pieces past the first) may shift the end's.
  if (!utc && pieces !== undefined && pieces.from.length > 1) {
    // Changes fall on whole seconds, so the start's fraction cannot put it on the other side of one.
    const seconds = zoneStart - start > 16 ? d2(text, start + 17) : 0;
    const instant = dayOf(text, start) * 86_400 + (clock - minutes) * 60 + seconds - written;
    if (offsetAt(pieces, instant) === written) {
      const offset = offsetAt(pieces, instant + minutes * 60);
      // An offset of seconds (local mean time, before 1900) has no ±hh:mm form: the start's is kept.
      if (offset % 60 === 0) shift = offset - written;
    }
    clock += shift / 60;
  }
  if (clock >= 0 && clock < 1440) {
    for (let i = 0; i < 11; i++) out[at + i] = text[start + i]!;
  } else {
    const days = Math.floor(clock / 1440);
    clock -= days * 1440;
    if (!writeDate(out, at, dayOf(text, start) + days)) return at;
    out[at + 10] = T;
  }
  put2(out, at + 11, (clock / 60) | 0);
  out[at + 13] = COLON;
  put2(out, at + 14, clock % 60);
  let w = at + 16;
  for (let i = start + 16; i < zoneStart; i++) out[w++] = text[i]!;
  if (shift === 0) {
    for (let i = zoneStart; i < end; i++) out[w++] = text[i]!;
    return w;
  }
  const offset = (written + shift) / 60;
  const abs = Math.abs(offset);
  out[w] = offset < 0 ? MINUS : PLUS;
  put2(out, w + 1, (abs / 60) | 0);
  out[w + 3] = COLON;
  put2(out, w + 4, abs % 60);
  return w + 6;
}

/** Days since 1970-01-01 of the date a date-time's text starts with. */
function dayOf(text: Uint8Array, start: number): number {
  return daysFromCivil(d2(text, start) * 100 + d2(text, start + 2), d2(text, start + 5), d2(text, start + 8));
}

/**
 * Writes `YYYY-MM-DD` of a day since 1970-01-01 (proleptic Gregorian; Hinnant's algorithm,
 * daysFromCivil's inverse); false, writing nothing, past the year 9999.
 */
function writeDate(out: Uint8Array, at: number, days: number): boolean {
  const civil = civilFromDays(days);
  const year = Math.floor(civil / 10_000);
  if (year > 9999) return false;
  put2(out, at, (year / 100) | 0);
  put2(out, at + 2, year % 100);
  out[at + 4] = MINUS;
  put2(out, at + 5, Math.floor(civil / 100) % 100);
  out[at + 7] = MINUS;
  put2(out, at + 8, civil % 100);
  return true;
}

/** The end of a start `minutes` later as text (writeEnd's), or undefined when it has none. */
export function endOf(startsAt: string, minutes: number, pieces?: ZonePieces): string | undefined {
  const text = Buffer.from(startsAt, "latin1");
  const out = new Uint8Array(text.length + END_SLACK);
  const length = writeEnd(text, 0, text.length, minutes, pieces, out, 0);
  return length === 0 ? undefined : Buffer.from(out.subarray(0, length)).toString("latin1");
}

/** What a snapshot's ends are computed from: each film's running time, each cinema's zone. */
export interface EndSources {
  /** Minutes by film index; 0: the film has none. */
  durations: Uint16Array;
  /** The zone offsets of cinema c, or undefined when it has no zone. */
  zoneOf(cinema: number): ZonePieces | undefined;
}

/** The ends of a snapshot's showtimes, by start-time code, film and cinema. */
export class ShowtimeEnds {
  private sources: EndSources | undefined;

  /** `readSources` is called on the first showtime rendered, not when the snapshot is opened. */
  constructor(
    private readonly startsAt: Dictionary,
    private readonly readSources: () => EndSources,
  ) {}

  /** Minutes of film f's running time; 0 when it has none (its showtimes have no end). */
  minutesOf(film: number): number {
    this.sources ??= this.readSources();
    return this.sources.durations[film] ?? 0;
  }

  /**
   * Writes `,"endsAt":"<end>"` of a showtime (start-time code, film, cinema) into `out` at `at`,
   * or nothing when it has no end; returns where it stops. Room needed: the start's text plus
   * END_MEMBER_SLACK.
   */
  write(out: Uint8Array, at: number, code: number, film: number, cinema: number): number {
    const minutes = this.minutesOf(film);
    if (minutes === 0) return at;
    const { offsets, bytes } = this.startsAt;
    const from = at + MEMBER_OPEN.length;
    const to = writeEnd(bytes, offsets[code]!, offsets[code + 1]!, minutes, this.sources!.zoneOf(cinema), out, from);
    if (to === from) return at;
    for (let i = 0; i < MEMBER_OPEN.length; i++) out[at + i] = MEMBER_OPEN[i]!;
    out[to] = MEMBER_CLOSE;
    return to + 1;
  }
}

/**
 * The ends of an index file's showtimes; undefined for a snapshot built before films' running times
 * were stored, whose records are served as they were built (no end), stored pages and composed alike.
 */
export function openShowtimeEnds(
  index: PagedFile,
  startsAt: Dictionary,
  filmCount: number,
  zones: () => SnapshotZones,
): ShowtimeEnds | undefined {
  const name = plainSections("films").durations;
  if (!index.hasSection(name)) return undefined;
  return new ShowtimeEnds(startsAt, () => {
    const bytes = index.readSection(name);
    if (bytes.byteLength !== 2 * filmCount)
      throw new SnapshotError(index.file.name, "its running times do not match the films");
    const cinemaZones = zones();
    return {
      durations: new Uint16Array(bytes.slice().buffer),
      zoneOf: (cinema) => cinemaZones.piecesOfCinema(cinema),
    };
  });
}
