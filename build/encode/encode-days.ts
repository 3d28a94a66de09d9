/**
 * Each cinema's films per local day (layout/sections.ts DAY_SECTIONS): what "films showing near me
 * on a date" and "cinemas showing this film" read instead of every showtime (decision: discovery).
 * A showtime's day is the one `date` would find it on (decision: local dates): in its cinema's zone,
 * by the same day boundaries the server computes (layout/zone-days.ts), or, at a cinema without a
 * zone, the date its startsAt is written with.
 */
import type { SnapshotContent } from "../../api/_core/format/layout/content.js";
import { DAY_SECTIONS } from "../../api/_core/format/layout/sections.js";
import { localDayOf, piecesOf } from "../../api/_core/format/layout/zone-days.js";
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import { epochSecondsOfKey, writtenWallMinutesOf } from "../../api/_core/format/primitives/date-time.js";
import { encodePacked } from "../../api/_core/format/primitives/packed.js";

/** What the showtime encoder already knows of each record, in by-cinema record order. */
export interface RecordFacts {
  /** The list position of each record. */
  listPositionOf: ArrayLike<number>;
  /** Each cinema's first record, and the end: the by-cinema clusters. */
  clusterStarts: ArrayLike<number>;
  /** The film of each list position. */
  filmOf: ArrayLike<number>;
  /** The start-time code of each record. */
  startsAtOfRecord: ArrayLike<number>;
}

/** The local day of each list position's showtime, at its cinema. */
function localDays(content: SnapshotContent, facts: RecordFacts): Int32Array {
  const zones = content.zones.zones.map(piecesOf);
  const zoneIndex = new Map(content.zones.zones.map((zone, i) => [zone.name, i]));
  const days = new Int32Array(content.showtimes.length);
  for (let c = 0; c + 1 < facts.clusterStarts.length; c++) {
    const name = content.cinemas[c]!.timeZone;
    const zone = name === undefined ? undefined : zones[zoneIndex.get(name)!];
    for (let r = facts.clusterStarts[c]!; r < facts.clusterStarts[c + 1]!; r++) {
      const p = facts.listPositionOf[r]!;
      const startsAt = content.showtimes[p]!.startsAt;
      days[p] = zone
        ? localDayOf(zone, epochSecondsOfKey(startsAt.key))
        : Math.floor(writtenWallMinutesOf(startsAt.text) / 1440);
    }
  }
  return days;
}

export function encodeDays(content: SnapshotContent, facts: RecordFacts): Map<string, Uint8Array> {
  const days = localDays(content, facts);
  const filmCount = content.films.length;
  const rows = {
    day: [] as number[],
    film: [] as number[],
    count: [] as number[],
    first: [] as number[],
    start: [] as number[],
  };
  // Days are kept from the earliest one, so that two bytes hold any span of 179 years.
  let base = 0;
  for (let p = 0; p < days.length; p++) base = p === 0 ? days[p]! : Math.min(base, days[p]!);
  const directory = new ByteWriter(4 + 4 * facts.clusterStarts.length);
  directory.i32(base);
  for (let c = 0; c + 1 < facts.clusterStarts.length; c++) {
    directory.u32(rows.day.length);
    // Records are in list order within a cinema: the first seen of a (day, film) is its first showtime.
    const byKey = new Map<number, { count: number; first: number }>();
    for (let r = facts.clusterStarts[c]!; r < facts.clusterStarts[c + 1]!; r++) {
      const p = facts.listPositionOf[r]!;
      const key = (days[p]! - base) * filmCount + facts.filmOf[p]!;
      const row = byKey.get(key);
      if (row) row.count++;
      else byKey.set(key, { count: 1, first: r });
    }
    for (const key of [...byKey.keys()].sort((a, b) => a - b)) {
      const row = byKey.get(key)!;
      rows.day.push(Math.floor(key / filmCount));
      rows.film.push(key % filmCount);
      rows.count.push(row.count);
      rows.first.push(row.first);
      rows.start.push(facts.startsAtOfRecord[row.first]!);
    }
  }
  directory.u32(rows.day.length);
  return new Map([
    [DAY_SECTIONS.days, directory.finish()],
    [DAY_SECTIONS.day, encodePacked(rows.day)],
    [DAY_SECTIONS.film, encodePacked(rows.film)],
    [DAY_SECTIONS.count, encodePacked(rows.count)],
    [DAY_SECTIONS.first, encodePacked(rows.first)],
    [DAY_SECTIONS.firstStart, encodePacked(rows.start)],
  ]);
}
