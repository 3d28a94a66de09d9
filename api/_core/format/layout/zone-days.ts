/**
 * When a local day begins in a time zone (decision: local dates), from the offsets the build stores
 * (layout/content.ts ZoneTable): the server's `date` filter and the build's summaries by local day
 * compute days with these functions alone, so the two can never disagree.
 */

/**
 * One zone's offsets: `offsets[i]` (seconds east of UTC) is in force from `from[i]` (epoch seconds; from[0] =
 * -Infinity).
 */
export interface ZonePieces {
  from: number[];
  offsets: number[];
}

export function piecesOf(zone: { initial: number; changes: ReadonlyArray<readonly [number, number]> }): ZonePieces {
  return {
    from: [Number.NEGATIVE_INFINITY, ...zone.changes.map(([at]) => at)],
    offsets: [zone.initial, ...zone.changes.map(([, offset]) => offset)],
  };
}

/**
 * The instant (epoch seconds) a local day begins: the first instant whose wall-clock time is at
 * least `localSeconds` (the day's start as if it were UTC). In a spring-forward gap that is the
 * instant the clocks jump; days are therefore contiguous instant windows.
 */
export function dayStartOf({ from, offsets }: ZonePieces, localSeconds: number): number {
  for (let i = 0; i < from.length; i++) {
    const candidate = Math.max(from[i]!, localSeconds - offsets[i]!);
    if (i + 1 === from.length || candidate < from[i + 1]!) return candidate;
  }
  throw new Error("unreachable: the last piece has no end");
}

/** The offset (seconds east of UTC) in force at instant `t` (epoch seconds): what a wall clock there shows, less t. */
export function offsetAt({ from, offsets }: ZonePieces, t: number): number {
  let i = from.length - 1;
  while (i > 0 && from[i]! > t) i--;
  return offsets[i]!;
}

/** The local day (days since 1970-01-01) holding instant `t` (epoch seconds), days starting at 00:00. */
export function localDayOf(zone: ZonePieces, t: number): number {
  // The wall clock's date, then the neighbour whose window holds t (a repeated hour belongs to the
  // day its first occurrence began; a day starting in a gap starts when the clocks jump).
  let day = Math.floor((t + offsetAt(zone, t)) / 86_400);
  while (t < dayStartOf(zone, day * 86_400)) day--;
  while (t >= dayStartOf(zone, (day + 1) * 86_400)) day++;
  return day;
}
