/**
 * The snapshot's time zones (layout/sections.ts ZONE_SECTIONS), resident: each cinema's zone, and
 * when a zone's local day begins and ends (decision: time zones). Computed from the offsets the
 * build stored, never from the runtime's own time-zone data, so every server answers alike.
 */
import { ZONE_SECTIONS } from "../layout/sections.js";
import { SnapshotError } from "../primitives/errors.js";
import { dayStartOf, offsetAt, type ZonePieces } from "../layout/zone-days.js";
import type { PagedFile } from "../primitives/paged-file.js";

const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);

export class SnapshotZones {
  readonly names: string[];
  private readonly pieces: ZonePieces[];
  private readonly cinemaZones: Uint16Array;
  private byName: Map<string, number> | undefined;

  constructor(index: PagedFile, cinemaCount: number) {
    const fail = (why: string) => new SnapshotError(index.file.name, `its time zones ${why}`);
    let table: { zones?: unknown };
    try {
      table = JSON.parse(Buffer.from(index.readSection(ZONE_SECTIONS.zones)).toString("utf8"));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("are not JSON");
    }
    if (!Array.isArray(table?.zones)) throw fail("have the wrong shape");
    this.names = [];
    this.pieces = table.zones.map((zone: { name?: unknown; initial?: unknown; changes?: unknown }) => {
      const changes = zone?.changes;
      if (typeof zone?.name !== "string" || !isInteger(zone.initial) || !Array.isArray(changes))
        throw fail("have the wrong shape");
      const pieces: ZonePieces = { from: [-Infinity], offsets: [zone.initial] };
      for (const change of changes) {
        if (
          !Array.isArray(change) ||
          !isInteger(change[0]) ||
          !isInteger(change[1]) ||
          change[0] <= pieces.from.at(-1)!
        )
          throw fail("have an offset change out of order");
        pieces.from.push(change[0]);
        pieces.offsets.push(change[1]);
      }
      this.names.push(zone.name);
      return pieces;
    });
    const bytes = index.readSection(ZONE_SECTIONS.cinemaZones);
    if (bytes.byteLength !== 2 * cinemaCount) throw fail("do not match the cinemas");
    this.cinemaZones = new Uint16Array(bytes.slice().buffer);
    for (const zone of this.cinemaZones) if (zone > this.names.length) throw fail("name a zone that is not listed");
    this.hasCinemaWithoutZone = this.cinemaZones.includes(0);
  }

  /** Whether some cinema has no zone (its showtimes' days are read from their written offsets). */
  readonly hasCinemaWithoutZone: boolean;

  /** The zone of cinema c (an index into `names`), or -1 when it has none. */
  zoneOf(c: number): number {
    return this.cinemaZones[c]! - 1;
  }

  /** The offsets of cinema c's zone, or undefined when it has none. */
  piecesOfCinema(c: number): ZonePieces | undefined {
    return this.pieces[this.cinemaZones[c]! - 1];
  }

  /**
   * The offset (seconds east of UTC) of the zone named `name` at instant `t` (epoch seconds), by the
   * offsets the build stored; undefined for a zone no cinema of the snapshot has.
   */
  offsetOf(name: string, t: number): number | undefined {
    this.byName ??= new Map(this.names.map((zone, z) => [zone, z]));
    const z = this.byName.get(name);
    return z === undefined ? undefined : offsetAt(this.pieces[z]!, t);
  }

  /** The instant (epoch seconds) a local day begins in zone z (layout/zone-days.ts dayStartOf). */
  startOf(z: number, localSeconds: number): number {
    return dayStartOf(this.pieces[z]!, localSeconds);
  }
}
