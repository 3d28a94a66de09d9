/**
 * The snapshot's places (layout/places.ts; decision: places), resident once a place search first
 * needs them: each place's JSON, key, cinema count and country, and their word index. Opening checks
 * that every part describes the same places, in key order, so a broken section is a 503 (a
 * SnapshotError), never a wrong answer.
 */
import { PLACE_SECTIONS } from "../layout/places.js";
import { Dictionary } from "../primitives/dictionary.js";
import { SnapshotError } from "../primitives/errors.js";
import type { PagedFile } from "../primitives/paged-file.js";
import { lowerBound } from "../primitives/search.js";
import { NameIndex } from "./name-index.js";

const A = 65;
const Z = 90;

export class PlaceIndex {
  readonly count: number;
  readonly names: NameIndex;
  private readonly records: Dictionary;
  private readonly keys: Dictionary;
  private readonly cinemas: Uint32Array;
  private readonly countries: Uint8Array;

  constructor(index: PagedFile) {
    const fail = (why: string) => new SnapshotError(index.file.name, `its places ${why}`);
    try {
      this.records = new Dictionary(index.readSection(PLACE_SECTIONS.records));
      this.keys = new Dictionary(index.readSection(PLACE_SECTIONS.keys));
    } catch (error) {
      if (error instanceof SnapshotError) throw error;
      throw fail("are not dictionaries");
    }
    this.count = this.records.count;
    this.cinemas = index.readUint32Section(PLACE_SECTIONS.cinemas);
    this.countries = index.readSection(PLACE_SECTIONS.countries);
    if (
      this.keys.count !== this.count ||
      this.cinemas.length !== this.count ||
      this.countries.length !== 2 * this.count
    )
      throw fail("do not match one another");
    for (const letter of this.countries)
      if (letter < A || letter > Z) throw fail("have a country code that is not one");
    for (let i = 1; i < this.count; i++)
      if (!(this.keys.text(i - 1) < this.keys.text(i))) throw fail("are out of order");
    this.names = new NameIndex(index, "places", this.count);
  }

  /** Place i's JSON, as served. */
  record(i: number): Uint8Array {
    return this.records.entry(i);
  }

  /** Place i's key (layout/places.ts placeKeyOf), what cursors name. */
  key(i: number): string {
    return this.keys.text(i);
  }

  /** How many of the snapshot's cinemas lie within 25 km of place i. */
  cinemasNear(i: number): number {
    return this.cinemas[i]!;
  }

  /** Whether place i is in the country with this code (two upper-case letters). */
  isIn(i: number, countryCode: string): boolean {
    return (
      this.countries[2 * i] === countryCode.charCodeAt(0) && this.countries[2 * i + 1] === countryCode.charCodeAt(1)
    );
  }

  /** The first place whose key is greater than `key`: where a page after it resumes in key order. */
  after(key: string): number {
    return lowerBound(this.count, (i) => this.keys.text(i) > key);
  }
}
