/**
 * Builds the snapshot's dictionaries from its content and gives every showtime (and every
 * cinema's and film's provenance) its codes. Start times are ordered by instant, so a showtime's
 * code orders it in time and a list can be searched by code; provenance times keep a rank per
 * code (equal instants, equal ranks) for the freshness fold; the rest are most frequent first.
 */
import { ByteWriter } from "../../api/_core/format/primitives/bytes.js";
import type { PlainRecord, SnapshotContent, TimeText } from "../../api/_core/format/layout/content.js";
import { DICTIONARY_SECTIONS } from "../../api/_core/format/layout/sections.js";
import { DictionaryBuilder, encodeDictionary, escapeJson } from "../../api/_core/format/primitives/dictionary.js";

/** Codes of each showtime, by list position; -1 for an absent optional field. */
export interface ShowtimeCodes {
  startsAt: Int32Array;
  attributes: Int32Array;
  screen: Int32Array;
  observed: Int32Array;
  updated: Int32Array;
  provider: Int32Array;
}

/** Provenance codes of a cinema's or film's records, by list position; -1 when absent. */
export interface PlainCodes {
  observed: Int32Array;
  updated: Int32Array;
}

export interface EncodedDictionaries {
  sections: Map<string, Uint8Array>;
  showtimes: ShowtimeCodes;
  cinemas: PlainCodes;
  films: PlainCodes;
}

/** Ranks of codes by instant key: equal instants share a rank. */
function ranksOf(values: readonly string[], keyOf: Map<string, string>): Int32Array {
  const order = values
    .map((_, code) => code)
    .sort((a, b) => {
      const [ka, kb] = [keyOf.get(values[a]!)!, keyOf.get(values[b]!)!];
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
  const ranks = new Int32Array(values.length);
  let rank = -1;
  let previous: string | undefined;
  for (const code of order) {
    const key = keyOf.get(values[code]!)!;
    if (key !== previous) rank++;
    ranks[code] = rank;
    previous = key;
  }
  return ranks;
}

function int32Section(values: Int32Array): Uint8Array {
  return new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
}

/** A time dictionary: every text seen, and the instant key of each. */
class TimeDictionary {
  readonly builder = new DictionaryBuilder();
  readonly keys = new Map<string, string>();

  add(time: TimeText | undefined): number {
    if (!time) return -1;
    this.keys.set(time.text, time.key);
    return this.builder.add(time.text);
  }
}

/** The list index of an id the build has linked; a miss is a bug, not bad data. */
export function resolve(index: ReadonlyMap<string, number>, id: string, what: string): number {
  const at = index.get(id);
  if (at === undefined)
    throw new Error(`a showtime refers to ${what} ${JSON.stringify(id)}, which the content does not hold`);
  return at;
}

function remap(provisional: Int32Array, codeOf: Int32Array): Int32Array {
  return provisional.map((p) => (p < 0 ? -1 : codeOf[p]!));
}

export function encodeDictionaries(content: SnapshotContent): EncodedDictionaries {
  const n = content.showtimes.length;
  const startsAt = new TimeDictionary();
  const observed = new TimeDictionary();
  const updated = new TimeDictionary();
  const sets = new DictionaryBuilder();
  const screens = new DictionaryBuilder();
  const providers = new DictionaryBuilder();
  const members = new Map<string, readonly number[]>();
  const attributeIndex = new Map(content.attributes.map((a, i) => [a.id, i]));
  const raw = {
    startsAt: new Int32Array(n),
    attributes: new Int32Array(n),
    screen: new Int32Array(n),
    observed: new Int32Array(n),
    updated: new Int32Array(n),
    provider: new Int32Array(n),
  };
  content.showtimes.forEach((s, i) => {
    raw.startsAt[i] = startsAt.add(s.startsAt);
    const setText = JSON.stringify(s.attributeIds);
    if (!members.has(setText))
      members.set(
        setText,
        s.attributeIds.map((id) => resolve(attributeIndex, id, "attribute")),
      );
    raw.attributes[i] = sets.add(setText);
    raw.screen[i] = s.screenName === undefined ? -1 : screens.add(escapeJson(s.screenName));
    raw.observed[i] = observed.add(s.observedAt);
    raw.updated[i] = updated.add(s.sourceUpdatedAt);
    raw.provider[i] = providers.add(escapeJson(s.provider));
  });
  const plainRaw = (records: readonly PlainRecord[]) => ({
    observed: Int32Array.from(records, (r) => observed.add(r.observed)),
    updated: Int32Array.from(records, (r) => updated.add(r.updated)),
  });
  const cinemasRaw = plainRaw(content.cinemas);
  const filmsRaw = plainRaw(content.films);

  const byInstant = (keys: Map<string, string>) => (a: string, b: string) => {
    const [ka, kb] = [keys.get(a)!, keys.get(b)!];
    return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  };
  const st = startsAt.builder.finish(byInstant(startsAt.keys));
  const ob = observed.builder.finish();
  const up = updated.builder.finish();
  const se = sets.finish();
  const sc = screens.finish();
  const pr = providers.finish();

  const memberSection = new ByteWriter();
  for (const text of se.values) {
    const list = members.get(text)!;
    memberSection.varint(list.length);
    for (const a of list) memberSection.varint(a);
  }
  const sections = new Map<string, Uint8Array>([
    [DICTIONARY_SECTIONS.startsAt, encodeDictionary(st.values.map(escapeJson))],
    [DICTIONARY_SECTIONS.startsAtKeys, encodeDictionary(st.values.map((text) => startsAt.keys.get(text)!))],
    [DICTIONARY_SECTIONS.attributeSets, encodeDictionary(se.values)],
    [DICTIONARY_SECTIONS.attributeSetMembers, memberSection.finish()],
    [DICTIONARY_SECTIONS.screens, encodeDictionary(sc.values)],
    [DICTIONARY_SECTIONS.observed, encodeDictionary(ob.values.map(escapeJson))],
    [DICTIONARY_SECTIONS.observedRanks, int32Section(ranksOf(ob.values, observed.keys))],
    [DICTIONARY_SECTIONS.updated, encodeDictionary(up.values.map(escapeJson))],
    [DICTIONARY_SECTIONS.updatedRanks, int32Section(ranksOf(up.values, updated.keys))],
    [DICTIONARY_SECTIONS.providers, encodeDictionary(pr.values)],
  ]);
  return {
    sections,
    showtimes: {
      startsAt: remap(raw.startsAt, st.codeOf),
      attributes: remap(raw.attributes, se.codeOf),
      screen: remap(raw.screen, sc.codeOf),
      observed: remap(raw.observed, ob.codeOf),
      updated: remap(raw.updated, up.codeOf),
      provider: remap(raw.provider, pr.codeOf),
    },
    cinemas: { observed: remap(cinemasRaw.observed, ob.codeOf), updated: remap(cinemasRaw.updated, up.codeOf) },
    films: { observed: remap(filmsRaw.observed, ob.codeOf), updated: remap(filmsRaw.updated, up.codeOf) },
  };
}
