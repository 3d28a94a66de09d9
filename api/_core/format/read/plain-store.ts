/** Cinemas, films and attributes of an open snapshot (encode-plain.ts), resident: they are few. */
import { Dictionary, escapeJson } from "../primitives/dictionary.js";
import { plainSections, type PlainResource } from "../layout/sections.js";
import type { FreshnessFold } from "./freshness.js";
import type { PageBuffer } from "../primitives/page-buffer.js";
import { SnapshotError } from "../primitives/errors.js";
import type { PagedFile } from "../primitives/paged-file.js";
import type { EscapedSortKey, RecordList, Seek } from "./record-list.js";
import { lowerBound } from "../primitives/search.js";

export class PlainStore implements RecordList {
  readonly length: number;
  private recordsRead: Dictionary | undefined;
  readonly ids: Dictionary;
  /** Per record: observed code + 1, updated code + 1 (0: none). */
  private readonly provenance: Uint32Array | undefined;
  private geo: Float64Array | undefined;
  private countries: Uint8Array | undefined;

  constructor(
    private readonly index: PagedFile,
    readonly resource: PlainResource,
  ) {
    const names = plainSections(resource);
    this.ids = new Dictionary(index.readSection(names.ids));
    this.length = this.ids.count;
    if (resource !== "attributes") {
      this.provenance = index.readUint32Section(names.provenance);
      if (this.provenance.length !== 2 * this.length)
        throw new RangeError(`${resource} provenance does not match its records`);
    }
  }

  /** The records' canonical JSON, read on first use: showtime pages need only the ids. */
  get records(): Dictionary {
    if (this.recordsRead) return this.recordsRead;
    const records = new Dictionary(this.index.readSection(plainSections(this.resource).records));
    if (records.count !== this.length)
      throw new SnapshotError(this.index.file.name, `${this.resource} records do not match their ids`);
    return (this.recordsRead = records);
  }

  /** The list index of an id, or -1 (ids compare as JavaScript strings: the list's order). */
  indexOf(id: string): number {
    const at = lowerBound(this.length, (i) => this.ids.text(i) >= id);
    return at < this.length && this.ids.text(at) === id ? at : -1;
  }

  seek(seek: Seek): number {
    const after = seek.after?.[0];
    return after === undefined ? 0 : lowerBound(this.length, (i) => this.ids.text(i) > after);
  }

  /** Folds one record's provenance into a fold. */
  foldInto(i: number, fold: FreshnessFold): void {
    if (this.provenance) fold.add(this.provenance[2 * i]! - 1, this.provenance[2 * i + 1]! - 1);
  }

  render(start: number, end: number, out: PageBuffer, fold: FreshnessFold): EscapedSortKey | undefined {
    for (let i = start; i < end; i++) {
      if (i > start) out.byte(0x2c);
      out.raw(this.records.entry(i));
      this.foldInto(i, fold);
    }
    return end > start ? { escapedId: escapeJson(this.ids.text(end - 1)) } : undefined;
  }

  /** Country code of cinema i ("  " when it has none). */
  countryCodeOf(i: number): string {
    const countries = this.countryTable();
    return String.fromCharCode(countries[2 * i]!, countries[2 * i + 1]!);
  }

  /** Every record's country code, two bytes each: resident, read and checked once. */
  private countryTable(): Uint8Array {
    if (this.countries) return this.countries;
    const countries = this.index.readSection(plainSections(this.resource).countries);
    if (countries.length !== 2 * this.length)
      throw new SnapshotError(this.index.file.name, `${this.resource} countries do not match their records`);
    return (this.countries = countries);
  }

  /** Latitude and longitude of cinema i (NaN when it has none). */
  coordinates(i: number): [number, number] {
    const geo = this.geoTable();
    return [geo[2 * i]!, geo[2 * i + 1]!];
  }

  /** Every record's latitude and longitude, interleaved (NaN when it has none): resident, read once. */
  geoTable(): Float64Array {
    if (this.geo) return this.geo;
    const geo = this.index.readFloat64Section(plainSections(this.resource).geo);
    if (geo.length !== 2 * this.length)
      throw new SnapshotError(this.index.file.name, `${this.resource} coordinates do not match their records`);
    return (this.geo = geo);
  }
}
