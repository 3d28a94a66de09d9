/**
 * Time zones as the runtime's IANA database knows them (decision: time zones): whether a name is a
 * zone, its UTC offset at an instant, and the instants where its offset changes. The build stores
 * what the server needs of each zone in the snapshot, so serving never depends on the runtime's
 * time-zone data.
 */

/** Zone names are IANA identifiers: Area/Location[/Sublocation], or UTC-like names. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

const formats = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter that writes the zone's UTC offset ("GMT+05:45"), or null when the runtime does not know the zone. */
function offsetFormat(zone: string): Intl.DateTimeFormat | null {
  let format = formats.get(zone);
  if (format !== undefined) return format;
  try {
    format = ZONE_NAME.test(zone)
      ? new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
      : null;
  } catch {
    format = null;
  }
  formats.set(zone, format);
  return format;
}

/** Whether the runtime's IANA database knows the zone (case as written: the API serves it so). */
export function isKnownTimeZone(zone: string): boolean {
  return offsetFormat(zone) !== null;
}

/** The zone's offset from UTC at an instant (epoch seconds), in seconds east of UTC. */
export function offsetAt(zone: string, epochSeconds: number): number {
  const format = offsetFormat(zone);
  if (!format) throw new Error(`unknown time zone ${zone}`);
  const name = format.formatToParts(epochSeconds * 1000).find((p) => p.type === "timeZoneName")!.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
  if (!m) throw new Error(`unexpected offset ${name} for ${zone}`);
  if (!m[1]) return 0;
  const seconds = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
  return m[1] === "-" ? -seconds : seconds;
}

/** A zone's offsets over a span: the offset at its start, then each change (the instant and the new offset). */
export interface ZoneOffsets {
  /** Offset (seconds east of UTC) in force at `from`. */
  initial: number;
  /** [epoch second the offset changes, new offset], ascending. */
  changes: Array<[number, number]>;
}

/** Zones change offset on whole seconds and never twice within this step (real rules are months apart). */
const STEP_SECONDS = 3600;

/** The offsets of `zone` from `from` to `to` (epoch seconds): sampled hourly, each change found to the second. */
export function zoneOffsets(zone: string, from: number, to: number): ZoneOffsets {
  const initial = offsetAt(zone, from);
  const changes: Array<[number, number]> = [];
  let previous = initial;
  for (let t = from; t < to; t += STEP_SECONDS) {
    const next = Math.min(t + STEP_SECONDS, to);
    const offset = offsetAt(zone, next);
    if (offset === previous) continue;
    // The first second in (t, next] with the new offset.
    let [lo, hi] = [t, next];
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(zone, mid) === previous) lo = mid;
      else hi = mid;
    }
    changes.push([hi, offset]);
    previous = offset;
  }
  return { initial, changes };
}
