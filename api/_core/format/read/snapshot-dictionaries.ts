/**
 * The dictionaries of an open snapshot, resident: rendering copies from them for every record.
 * Their fragment tables (dictionary.ts) wrap each entry in the JSON text around it.
 */
import { ByteReader } from "../primitives/bytes.js";
import { writtenWallMinutesOf } from "../primitives/date-time.js";
import { lowerBound } from "../primitives/search.js";
import { Dictionary, escapedDictionary, Fragments, WrappedTexts } from "../primitives/dictionary.js";
import { DICTIONARY_SECTIONS as D } from "../layout/sections.js";
import type { TimeDictionary } from "./freshness.js";
import type { PagedFile } from "../primitives/paged-file.js";
import type { ShowtimeFragments } from "./showtime-block.js";
import { SHOWTIME_TEXTS } from "./showtime-texts.js";

function ranks(section: Uint8Array, count: number): Int32Array {
  if (section.byteLength !== count * 4) throw new RangeError("ranks do not match their dictionary");
  return new Int32Array(section.buffer, section.byteOffset, count);
}

export class SnapshotDictionaries {
  readonly startsAt: Dictionary;
  /** The instant key of each start-time code (date-time.ts): ascending, since codes follow instants. */
  private readonly startsAtKeys: string[];
  readonly attributeSets: Dictionary;
  private readonly memberSection: Uint8Array;
  private members: number[][] | undefined;
  private wallMinutes: Int32Array | undefined;
  readonly observed: TimeDictionary;
  readonly updated: TimeDictionary;
  readonly fragments: ShowtimeFragments;

  constructor(index: PagedFile, cinemaIds: Dictionary, filmIds: Dictionary) {
    const load = (name: string) => new Dictionary(index.readSection(name));
    this.startsAt = load(D.startsAt);
    const keys = load(D.startsAtKeys);
    if (keys.count !== this.startsAt.count) throw new RangeError("start-time keys do not match their dictionary");
    this.startsAtKeys = Array.from({ length: keys.count }, (_, i) => keys.text(i));
    for (let i = 1; i < this.startsAtKeys.length; i++)
      if (this.startsAtKeys[i - 1]! > this.startsAtKeys[i]!) throw new RangeError("start-time keys out of order");
    this.attributeSets = load(D.attributeSets);
    this.memberSection = index.readSection(D.attributeSetMembers);
    // Provenance times are many (70,000 at 2M showtimes): kept once, rendered between fixed texts.
    const T = SHOWTIME_TEXTS;
    const observed = new WrappedTexts(load(D.observed), T.observedOpen, T.observedClose);
    const updated = new WrappedTexts(load(D.updated), T.updatedOpen, T.updatedClose);
    this.observed = { dictionary: observed, ranks: ranks(index.readSection(D.observedRanks), observed.count) };
    this.updated = { dictionary: updated, ranks: ranks(index.readSection(D.updatedRanks), updated.count) };
    this.fragments = {
      films: new Fragments(escapedDictionary(filmIds), T.film),
      cinemas: new Fragments(escapedDictionary(cinemaIds), T.cinemaOpen, T.cinemaClose),
      startsAt: new Fragments(this.startsAt, "", T.startsAtClose),
      attributes: new Fragments(this.attributeSets, T.attributes),
      screens: new Fragments(load(D.screens), T.screenOpen, T.screenClose),
      observed,
      updated,
      providers: new Fragments(load(D.providers), T.providerOpen, T.providerClose),
    };
  }

  /** The instant key of a start-time code. */
  instantKeyOf(code: number): string {
    return this.startsAtKeys[code]!;
  }

  /** The first start-time code whose instant is after `key` (the count when none is). */
  firstCodeAfter(key: string): number {
    return lowerBound(this.startsAtKeys.length, (i) => this.startsAtKeys[i]! > key);
  }

  /** The first start-time code whose instant is at or after `key`. */
  firstCodeAtOrAfter(key: string): number {
    return lowerBound(this.startsAtKeys.length, (i) => this.startsAtKeys[i]! >= key);
  }

  /**
   * The wall-clock minutes (since 1970-01-01 00:00) a start time's text shows in its own written
   * offset, by start-time code: the local day of a showtime at a cinema without a time zone.
   * Computed on first use.
   */
  writtenWallMinutes(code: number): number {
    this.wallMinutes ??= Int32Array.from({ length: this.startsAt.count }, (_, i) =>
      writtenWallMinutesOf(this.startsAt.text(i)),
    );
    return this.wallMinutes[code]!;
  }

  /** The attribute indexes (attribute list order) of each attribute-set code. */
  attributeSetMembers(): number[][] {
    if (this.members) return this.members;
    const reader = new ByteReader(this.memberSection);
    const members = Array.from({ length: this.attributeSets.count }, () =>
      Array.from({ length: reader.varint() }, () => reader.varint()),
    );
    return (this.members = members);
  }
}
