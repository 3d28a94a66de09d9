/**
 * Two valid values of every query parameter the API takes, by its name on the wire: the one list
 * every test that sends parameters draws from (cursor binding, the OpenAPI document's parameters,
 * stored pages by allow-list, the parameter tables), so a new parameter is a row here and its
 * oracle entry (query-oracle.ts). `parameter-tables.test.ts` fails for a name of any table that
 * has no row here. Values need not name a record: each is what a parser takes.
 */
import { CHANGES_PARAMETERS } from "../../api/_core/endpoints/parameters/changes.js";
import { namesOf, type ParameterTable } from "../../api/_core/endpoints/parameters/parameter.js";
import { PLACE_PARAMETERS } from "../../api/_core/endpoints/parameters/places.js";
import { LIST_TABLES, ONE_TABLES } from "../../api/_core/endpoints/parse-request.js";

export interface Sample {
  /** Two different valid values, as sent (not yet percent-encoded). */
  one: string;
  other: string;
  /** The parameter it is taken only beside (a 400 alone, decision: query parameters). */
  requires?: string;
}

/** Values only the API issues (a cursor, a sync token): tests take them from an answer. */
export const ISSUED = "issued by the API";

export const PARAMETER_SAMPLES: Readonly<Record<string, Sample | typeof ISSUED>> = {
  cinemaId: { one: "c-1", other: "c-2" },
  filmId: { one: "f-1", other: "f-2" },
  chainId: { one: "odeon", other: "cineworld" },
  countryCode: { one: "DE", other: "GB" },
  startsAfter: { one: "2026-11-24T18:00Z", other: "2026-11-24T19:00+01:00" },
  startsBefore: { one: "2026-11-30T18:00Z", other: "2026-11-30T19:00Z" },
  date: { one: "2026-11-27", other: "2026-11-28" },
  dayStartsAt: { one: "03:00", other: "04:00", requires: "date" },
  attributeIds: { one: "format-imax", other: "format-imax,lang-en" },
  anyAttributeIds: { one: "lang-en", other: "format-imax,format-2d" },
  near: { one: "52.52,13.405", other: "48.1,11.5" },
  radiusKm: { one: "25", other: "5", requires: "near" },
  // A name's words: a film's, a cinema's or a place's (the place search's q, required there).
  q: { one: "odeon", other: "orbit of" },
  include: { one: "film,cinema", other: "film" },
  limit: { one: "7", other: "3" },
  cursor: ISSUED,
  since: ISSUED,
};

/** Every table of query parameters the API has, by a name for test titles. */
export const ALL_TABLES: Readonly<Record<string, ParameterTable>> = {
  ...Object.fromEntries(Object.entries(LIST_TABLES).map(([resource, table]) => [resource, table])),
  ...Object.fromEntries(Object.entries(ONE_TABLES).map(([resource, table]) => [`${resource}/{id}`, table])),
  changes: CHANGES_PARAMETERS,
  places: PLACE_PARAMETERS,
};

/** The sample of a name the API chooses values for (throws for an issued one or a name without a row). */
export function sampleOf(name: string): Sample {
  const sample = PARAMETER_SAMPLES[name];
  if (sample === undefined) throw new Error(`test/helpers/parameter-samples.ts has no sample of ${name}`);
  if (sample === ISSUED) throw new Error(`${name} is issued by the API: take one from an answer`);
  return sample;
}

/** `names` with the parameters any of them is taken only beside, each once. */
export function withRequired(names: readonly string[]): string[] {
  const all = [...names];
  for (const name of names) {
    const requires = (PARAMETER_SAMPLES[name] as Sample | undefined)?.requires;
    if (requires && !all.includes(requires)) all.push(requires);
  }
  return all;
}

/** A value percent-encoded as a client sends it: list and point commas stay literal. */
export const encodeValue = (value: string) => encodeURIComponent(value).replace(/%2C/g, ",");

/** A query string of each name's `which` value (those it requires with their first), percent-encoded. */
export function sampleQuery(names: readonly string[], which: "one" | "other" = "one"): string {
  return withRequired(names)
    .map((name) => `${name}=${encodeValue(sampleOf(name)[names.includes(name) ? which : "one"])}`)
    .join("&");
}

/** Every name of every table that has no row here. */
export function namesWithoutSamples(): string[] {
  const names = new Set(Object.values(ALL_TABLES).flatMap((table) => namesOf(table)));
  return [...names].filter((name) => PARAMETER_SAMPLES[name] === undefined);
}
