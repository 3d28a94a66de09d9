/**
 * The names of index.pages' sections and the sizes of their fixed entries: what the writers lay
 * out and the readers find, defined once for both.
 */

/** Section names of the dictionaries (index.pages). */
export const DICTIONARY_SECTIONS = {
  startsAt: "dict.startsAt",
  startsAtKeys: "dict.startsAt.keys",
  attributeSets: "dict.attributeSets",
  attributeSetMembers: "dict.attributeSets.members",
  screens: "dict.screens",
  observed: "dict.observed",
  observedRanks: "dict.observed.ranks",
  updated: "dict.updated",
  updatedRanks: "dict.updated.ranks",
  providers: "dict.providers",
} as const;

export const SHOWTIME_SECTIONS = {
  order: "showtimes.order",
  orderSets: "showtimes.order.sets",
  orderStarts: "showtimes.order.starts",
  films: "showtimes.films",
  filmPositions: "showtimes.films.positions",
  filmSets: "showtimes.films.sets",
  filmStarts: "showtimes.films.starts",
  zones: "showtimes.zones",
  zonePositions: "showtimes.zones.positions",
  zoneStarts: "showtimes.zones.starts",
  pairs: "showtimes.pairs",
  pairEntries: "showtimes.pairs.entries",
  pairPositions: "showtimes.pairs.positions",
  idBuckets: "showtimes.ids.buckets",
  idRecords: "showtimes.ids.records",
  idFingerprints: "showtimes.ids.fingerprints",
} as const;

/**
 * How the showtime records are clustered: by cinema. (A second clustering by film was measured and
 * refused: consecutive records of a film come from different cinemas, so its strings do not
 * compress, and at 2M showtimes it added 75 MB where the whole function may carry 250.)
 */
export const CLUSTERINGS = ["byCinema"] as const;
export type Clustering = (typeof CLUSTERINGS)[number];

/** Sections of one clustering: its block directory and its cluster directory. */
export const clusteringSections = (clustering: Clustering) => ({
  blocks: `showtimes.${clustering}.blocks`,
  clusters: `showtimes.${clustering}.clusters`,
});

/**
 * Bytes per entry of a block directory: f64 offset, u32 length, u32 first record, u32 count, u32 cluster, u32 first
 * start-time code, u32 zero.
 */
export const BLOCK_ENTRY_BYTES = 32;
/** Bytes per cluster entry: u32 first record, u32 count, u32 first block, u32 block count. */
export const CLUSTER_ENTRY_BYTES = 16;
/** Positions per attribute-set summary of a position list. */
export const SUMMARY_CHUNK = 64;

export type PlainResource = "cinemas" | "films" | "attributes";

export const plainSections = (resource: PlainResource) => ({
  records: `${resource}.records`,
  ids: `${resource}.ids`,
  provenance: `${resource}.provenance`,
  geo: `${resource}.geo`,
  countries: `${resource}.countries`,
  /**
   * Films: a u16 per film, its durationMinutes (0: none), which showtimes' ends are derived from
   * (decision: showtime ends). A snapshot built before it has none, and serves no ends.
   */
  durations: `${resource}.durations`,
});

/**
 * The snapshot's time zones (decision: time zones): `zones` is JSON, {from, to, zones: [{name,
 * initial, changes: [[epoch second, offset]]}]} as content.ts ZoneTable; `cinemas.zones` a u16 per
 * cinema, its zone's index in that list plus one (0: none).
 */
export const ZONE_SECTIONS = { zones: "zones", cinemaZones: "cinemas.zones" } as const;

/**
 * What discovery reads (decision: discovery): per cinema, per local day (00:00 to 00:00 at the
 * cinema, as `date` counts days), per film showing there that day, how many showtimes it has and
 * its first one. `days` is an i32, the earliest day (days since 1970-01-01), then a u32 per cinema
 * plus one: where its rows start, rows in (day, film) order; the other sections are packed arrays
 * of one value per row: the day (days after the earliest), the film (index), the count, the first
 * showtime's record number and its start-time code.
 */
export const DAY_SECTIONS = {
  days: "discovery.days",
  day: "discovery.days.day",
  film: "discovery.days.film",
  count: "discovery.days.count",
  first: "discovery.days.first",
  firstStart: "discovery.days.firstStart",
} as const;

/** Name search (decision: name search) of films (by title) and cinemas (by name and locality). */
export type SearchResource = "films" | "cinemas";
/** What has a word index: a searchable list, or the places (layout/places.ts; decision: places). */
export type WordIndexOwner = SearchResource | "places";

/**
 * A resource's word index: `words` the distinct words its names are found by (layout/name-words.ts),
 * ascending; `postings` a u32 per word plus one: where its records start in `records`, the packed
 * record indexes (ascending per word); `names` each record's name key, a dictionary by record;
 * `byName` the record indexes in name-key order (then index), packed.
 */
export const searchSections = (resource: WordIndexOwner) => ({
  words: `search.${resource}.words`,
  postings: `search.${resource}.postings`,
  records: `search.${resource}.records`,
  names: `search.${resource}.names`,
  byName: `search.${resource}.byName`,
});

/** Each cinema's chain: a dictionary of the chain ids, and a u32 per cinema, its chain's index plus one (0: none). */
export const CHAIN_SECTIONS = { chains: "cinemas.chains", cinemaChains: "cinemas.chains.byCinema" } as const;
