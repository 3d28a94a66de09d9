/**
 * The snapshot's places (layout/places.ts; decision: places), resident once a place search first
 * needs them: each place's name, coordinates, cinema count and what it shares with others (country,
 * kind, region), and their word index. A place's JSON and key are derived from those, never stored.
 * Opening checks that every part describes the same places, in key order, so a broken section is
 * a 503 (a SnapshotError), never a wrong answer.
 */
import {
  PLACE_COORDINATE_UNITS,
  PLACE_SECTIONS,
  type Place,
  parsePlaceWhere,
  placeKeyFrom,
  placeKeyMiddle,
} from "../layout/places.js";
import { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import { PACKED_HEADER, readPacked } from "../primitives/packed.js";
import type { PageBuffer } from "../primitives/page-buffer.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";
import { NameIndex } from "./name-index.js";

/** What places of one PLACE_SECTIONS.where entry share, ready to be written. */
interface Where {
  fields: Pick<Place, "countryCode" | "kind" | "region">;
  /** The JSON between a place's name and its latitude: `","kind":…,"latitude":`. */
  json: Uint8Array;
  /** The middle of its places' keys (layout/places.ts placeKeyMiddle). */
  keyMiddle: string;
}

const BACKSLASH = 0x5c;
const MAX_UNITS = { latitude: 90 * PLACE_COORDINATE_UNITS, longitude: 180 * PLACE_COORDINATE_UNITS };

export class PlaceIndex {
  readonly count: number;
  readonly names: NameIndex;
  private readonly placeNames: Dictionary;
  private readonly where: Where[];
  private readonly whereOf: Uint32Array;
  private readonly coordinates: Int32Array;
  private readonly cinemas: Uint32Array;

  constructor(index: PagedFile) {
    const fail = (why: string) => new SnapshotError(index.file.name, `its places ${why}`);
    let wheres: Dictionary;
    try {
      this.placeNames = new Dictionary(index.readSection(PLACE_SECTIONS.names));
      wheres = new Dictionary(index.readSection(PLACE_SECTIONS.where));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("are not dictionaries");
    }
    this.count = this.placeNames.count;
    this.where = Array.from({ length: wheres.count }, (_, w) => {
      const fields = parsePlaceWhere(wheres.text(w));
      if (!fields) throw fail("have a country, kind and region that are not one");
      return { fields, json: whereJson(fields), keyMiddle: placeKeyMiddle(fields) };
    });
    const units = index.readUint32Section(PLACE_SECTIONS.coordinates);
    this.coordinates = new Int32Array(units.buffer, units.byteOffset, units.length);
    this.whereOf = unpack(index.readSection(PLACE_SECTIONS.wheres), this.count, fail);
    this.cinemas = unpack(index.readSection(PLACE_SECTIONS.cinemas), this.count, fail);
    if (this.coordinates.length !== 2 * this.count) throw fail("do not match one another");
    for (let i = 0; i < this.count; i++) {
      if (this.whereOf[i]! >= this.where.length) throw fail("name a country, kind and region that do not exist");
      if (Math.abs(this.coordinates[2 * i]!) > MAX_UNITS.latitude) throw fail("have a latitude that is not one");
      if (Math.abs(this.coordinates[2 * i + 1]!) > MAX_UNITS.longitude) throw fail("have a longitude that is not one");
    }
    this.names = new NameIndex(index, "places", this.count);
    for (let i = 1; i < this.count; i++) if (!this.inOrder(i - 1, i)) throw fail("are out of order");
  }

  /**
   * Whether place a's key is below place b's. A key starts with its name key and a `|`, which no
   * name key holds: two different starts decide, and only namesakes' whole keys are made (opening
   * 60,000 places makes 60,000 keys otherwise, a microsecond each).
   */
  private inOrder(a: number, b: number): boolean {
    const [first, second] = [`${this.names.nameKey(a)}|`, `${this.names.nameKey(b)}|`];
    return first === second ? this.key(a) < this.key(b) : first < second;
  }

  /** Writes place i's JSON, as served (layout/places.ts placeJson, byte for byte). */
  render(i: number, out: PageBuffer): void {
    out.ascii('{"name":"');
    out.raw(this.placeNames.entry(i));
    out.raw(this.where[this.whereOf[i]!]!.json);
    out.ascii(`${this.latitude(i)},"longitude":${this.longitude(i)},"cinemasWithin25Km":${this.cinemas[i]!}}`);
  }

  /** Place i, as its JSON says it. */
  place(i: number): Place {
    const { fields } = this.where[this.whereOf[i]!]!;
    return {
      name: this.name(i),
      kind: fields.kind,
      ...(fields.region === undefined ? {} : { region: fields.region }),
      countryCode: fields.countryCode,
      latitude: this.latitude(i),
      longitude: this.longitude(i),
      cinemasWithin25Km: this.cinemas[i]!,
    };
  }

  /** Place i's key (layout/places.ts placeKeyOf), what cursors name. */
  key(i: number): string {
    const { keyMiddle } = this.where[this.whereOf[i]!]!;
    return placeKeyFrom(this.names.nameKey(i), keyMiddle, this.latitude(i), this.longitude(i), this.name(i));
  }

  /** How many of the snapshot's cinemas lie within 25 km of place i. */
  cinemasNear(i: number): number {
    return this.cinemas[i]!;
  }

  /** Whether place i is in the country with this code (two upper-case letters). */
  isIn(i: number, countryCode: string): boolean {
    return this.where[this.whereOf[i]!]!.fields.countryCode === countryCode;
  }

  /** The first place whose key is greater than `key`: where a page after it resumes in key order. */
  after(key: string): number {
    return lowerBound(this.count, (i) => this.key(i) > key);
  }

  private latitude(i: number): number {
    return this.coordinates[2 * i]! / PLACE_COORDINATE_UNITS;
  }

  private longitude(i: number): number {
    return this.coordinates[2 * i + 1]! / PLACE_COORDINATE_UNITS;
  }

  /** Place i's name: its stored text is the inside of a JSON string, the same text unless it has an escape. */
  private name(i: number): string {
    const text = this.placeNames.text(i);
    return this.placeNames.entry(i).includes(BACKSLASH) ? JSON.parse(`"${text}"`) : text;
  }
}

/** The JSON after a place's name and before its latitude's value. */
function whereJson(fields: Where["fields"]): Uint8Array {
  const region = fields.region === undefined ? "" : `,"region":${JSON.stringify(fields.region)}`;
  return Buffer.from(`","kind":"${fields.kind}"${region},"countryCode":"${fields.countryCode}","latitude":`);
}

/** A packed section of `count` values, resident as u32s. */
function unpack(section: Uint8Array, count: number, fail: (why: string) => Error): Uint32Array {
  const width = section[0] ?? 0;
  const values = section.subarray(PACKED_HEADER);
  if (width < 1 || width > 4 || values.length !== count * width) throw fail("do not match one another");
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = readPacked(values, width, i);
  return out;
}
