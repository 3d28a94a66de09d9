/**
 * Time zones as the pinned IANA database knows them (decision: time zones): whether a name is a
 * zone, its UTC offset at an instant, and the instants where its offset changes. The database is
 * moment-timezone's packed tzdata (its `moment.tz.dataVersion`), not the runtime's ICU: Node.js
 * lines carry different tzdata (20: 2025c, where British Columbia still falls back in November
 * 2026; 24: 2026c, where it keeps summer time), and a snapshot must be byte for byte the same
 * whichever line built it. The build stores what the server needs of each zone in the snapshot,
 * so serving never depends on any time-zone data.
 */
import moment from "moment-timezone";

/** Zone names are IANA identifiers: Area/Location[/Sublocation], or UTC-like names. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

type Zone = NonNullable<ReturnType<typeof moment.tz.zone>>;

/** The zone's rules by any of its names in any case (IANA names never differ by case alone), or null. */
function zoneRules(zone: string): Zone | null {
  return ZONE_NAME.test(zone) ? moment.tz.zone(zone) : null;
}

/** Whether the IANA database knows the zone (case as written: the API serves it so). */
export function isKnownTimeZone(zone: string): boolean {
  return zoneRules(zone) !== null;
}

function rulesOf(zone: string): Zone {
  const rules = zoneRules(zone);
  if (!rules) throw new Error(`unknown time zone ${zone}`);
  return rules;
}

/** tzdata writes offsets as minutes west of UTC (fractions before standard time); ours are seconds east. */
const secondsEast = (minutesWest: number): number => -Math.round(minutesWest * 60) || 0;

/** The zone's offset from UTC at an instant (epoch seconds), in seconds east of UTC. */
export function offsetAt(zone: string, epochSeconds: number): number {
  return secondsEast(rulesOf(zone).utcOffset(epochSeconds * 1000));
}

/** A zone's offsets over a span: the offset at its start, then each change (the instant and the new offset). */
export interface ZoneOffsets {
  /** Offset (seconds east of UTC) in force at `from`. */
  initial: number;
  /** [epoch second the offset changes, new offset], ascending. */
  changes: Array<[number, number]>;
}

/**
 * The offsets of `zone` from `from` to `to` (epoch seconds): the database's own transitions in
 * (from, to], each where the offset really changes (a new abbreviation alone is not a change).
 */
export function zoneOffsets(zone: string, from: number, to: number): ZoneOffsets {
  const rules = rulesOf(zone);
  const initial = secondsEast(rules.utcOffset(from * 1000));
  const changes: Array<[number, number]> = [];
  let previous = initial;
  for (let i = 0; i < rules.untils.length - 1; i++) {
    const at = Math.round(rules.untils[i]! / 1000);
    if (at <= from) continue;
    if (at > to) break;
    const offset = secondsEast(rules.offsets[i + 1]!);
    if (offset === previous) continue;
    changes.push([at, offset]);
    previous = offset;
  }
  return { initial, changes };
}
