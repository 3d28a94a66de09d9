/**
 * Each cinema's films per local day (layout/sections.ts DAY_SECTIONS): what "films showing near me
 * on a date" and "cinemas showing this film" read instead of every showtime (decision: discovery).
 * A showtime's day is the one `date` would find it on (decision: local dates): in its cinema's zone,
 * by the same day boundaries the server computes (layout/zone-days.ts), or, at a cinema without a
 * zone, the date its startsAt is written with.
 */
import type { SnapshotContent } from "../../api/_core/format/layout/content.js";
import { DAY_SECTIONS } from "../../api/_core/format/layout/sections.js";
import { dayStartOf, localDayOf, piecesOf, type ZonePieces } from "../../api/_core/format/layout/zone-days.js";
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

/**
 * The local day of every record (by-cinema order). A cinema's records are in instant order, so in
 * a zone the day is found once per day, then kept while the instants stay in its window; without a
 * zone it is read off each start-time code's text once.
 */
function localDays(content: SnapshotContent, facts: RecordFacts): Int32Array {
  const zones = content.zones.zones.map(piecesOf);
  const zoneIndex = new Map(content.zones.zones.map((zone, i) => [zone.name, i]));
  const codes = facts.startsAtOfRecord;
  const days = new Int32Array(codes.length);
  const epochOfCode = new Map<number, number>();
  const writtenDayOfCode = new Map<number, number>();
  const textOf = (r: number) => content.showtimes[facts.listPositionOf[r]!]!.startsAt;
  for (let c = 0; c + 1 < facts.clusterStarts.length; c++) {
    const name = content.cinemas[c]!.timeZone;
    const zone: ZonePieces | undefined = name === undefined ? undefined : zones[zoneIndex.get(name)!];
    let [from, to, day] = [1, 0, 0];
    for (let r = facts.clusterStarts[c]!; r < facts.clusterStarts[c + 1]!; r++) {
      const code = codes[r]!;
      if (!zone) {
        let written = writtenDayOfCode.get(code);
        if (written === undefined)
          writtenDayOfCode.set(code, (written = Math.floor(writtenWallMinutesOf(textOf(r).text) / 1440)));
        days[r] = written;
        continue;
      }
      let t = epochOfCode.get(code);
      if (t === undefined) epochOfCode.set(code, (t = epochSecondsOfKey(textOf(r).key)));
      if (t < from || t >= to) {
        day = localDayOf(zone, t);
        [from, to] = [dayStartOf(zone, day * 86_400), dayStartOf(zone, (day + 1) * 86_400)];
      }
      days[r] = day;
    }
  }
  return days;
}

export function encodeDays(content: SnapshotContent, facts: RecordFacts): Map<string, Uint8Array> {
  const days = localDays(content, facts);
  // Days are kept from the earliest one, so that two bytes hold any span of 179 years.
  const base = days.length === 0 ? 0 : days.reduce((min, day) => Math.min(min, day), days[0]!);
  const filmCount = content.films.length;
  const rows = { day: [] as number[], film: [] as number[], count: [] as number[], first: [] as number[] };
  const directory = new ByteWriter(4 + 4 * facts.clusterStarts.length);
  directory.i32(base);
  for (let c = 0; c + 1 < facts.clusterStarts.length; c++) {
    directory.u32(rows.day.length);
    // Records are in list order within a cinema: the first seen of a (day, film) is its first showtime.
    const byKey = new Map<number, number>();
    const counts: number[] = [];
    const firsts: number[] = [];
    for (let r = facts.clusterStarts[c]!; r < facts.clusterStarts[c + 1]!; r++) {
      const key = (days[r]! - base) * filmCount + facts.filmOf[facts.listPositionOf[r]!]!;
      const row = byKey.get(key);
      if (row === undefined) {
        byKey.set(key, counts.length);
        counts.push(1);
        firsts.push(r);
      } else counts[row]!++;
    }
    for (const key of [...byKey.keys()].sort((a, b) => a - b)) {
      const row = byKey.get(key)!;
      rows.day.push(Math.floor(key / filmCount));
      rows.film.push(key % filmCount);
      rows.count.push(counts[row]!);
      rows.first.push(firsts[row]!);
    }
  }
  directory.u32(rows.day.length);
  return new Map([
    [DAY_SECTIONS.days, directory.finish()],
    [DAY_SECTIONS.day, encodePacked(rows.day)],
    [DAY_SECTIONS.film, encodePacked(rows.film)],
    [DAY_SECTIONS.count, encodePacked(rows.count)],
    [DAY_SECTIONS.first, encodePacked(rows.first)],
    [DAY_SECTIONS.firstStart, encodePacked(rows.first.map((r) => facts.startsAtOfRecord[r]!))],
  ]);
}
