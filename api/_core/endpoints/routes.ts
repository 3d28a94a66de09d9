/**
 * Every endpoint, defined once: its operation id (the OpenAPI document's and the typed client's
 * method), its path, its table of query parameters, and what answers it. A path segment is a
 * literal or a record's id, named by its parameter and the records it names; the ids of a path are
 * what a list's cursors, entity tags
 * and pages are scoped to, and the 404 of a missing record. Given the route, an endpoint learns
 * its path's ids from here, so a list of a record's own (a sub-resource such as
 * `/v1/films/{filmId}/cinemas`) cannot be left unscoped. A new endpoint is a row here, its
 * parameter table and its compose module; the OpenAPI operations (their paths, parameters and
 * 404s) are rendered from the rows, and the typed client is checked against them.
 */
import { changesEndpoint } from "./changes-endpoint.js";
import { CHANGES_PARAMETERS } from "./parameters/changes.js";
import type { ParameterTable } from "./parameters/parameter.js";
import { LIST_TABLES, ONE_TABLES } from "./parse-request.js";
import { listEndpoint } from "./list-endpoints.js";
import { MARKETS_PARAMETERS, marketsEndpoint } from "./markets-endpoint.js";
import { PLACE_PARAMETERS } from "./parameters/places.js";
import { placesEndpoint } from "./places-endpoint.js";
import { showtimeOneEndpoint, storedOneEndpoint } from "./one-endpoints.js";
import type { PathId, RouteEndpoint } from "./path-ids.js";
import type { Endpoint } from "./serving.js";

export type { PathId } from "./path-ids.js";

type Segment = string | PathId;

export interface Route<Id extends string = string> {
  readonly operationId: Id;
  /** Its segments after the leading "/": literals and ids. */
  readonly path: readonly Segment[];
  /** The path's ids, in path order. */
  readonly ids: readonly PathId[];
  /** Its query parameters, in the order they are checked. */
  readonly table: ParameterTable;
  readonly endpoint: Endpoint;
}

const showtimeId: PathId = { parameter: "showtimeId", names: "showtimes" };
const cinemaId: PathId = { parameter: "cinemaId", names: "cinemas" };
const filmId: PathId = { parameter: "filmId", names: "films" };

/** A route row: the endpoint is made for its path, which names the ids it is scoped to. */
function route<Id extends string>(
  operationId: Id,
  path: readonly Segment[],
  table: ParameterTable,
  endpoint: RouteEndpoint,
): Route<Id> {
  const ids = path.filter((segment): segment is PathId => typeof segment !== "string");
  // The route's name, as cursors are bound to it: its literal segments after the version.
  const name = path.filter((segment): segment is string => typeof segment === "string" && segment !== "v1").join("/");
  return { operationId, path, ids, table, endpoint: endpoint({ name, ids, table }) };
}

export const ROUTES = [
  route("listShowtimes", ["v1", "showtimes"], LIST_TABLES.showtimes, listEndpoint("showtimes")),
  route("getShowtime", ["v1", "showtimes", showtimeId], ONE_TABLES.showtimes, showtimeOneEndpoint),
  route("listCinemas", ["v1", "cinemas"], LIST_TABLES.cinemas, listEndpoint("cinemas")),
  route("getCinema", ["v1", "cinemas", cinemaId], ONE_TABLES.cinemas, storedOneEndpoint("cinemas")),
  route("listFilms", ["v1", "films"], LIST_TABLES.films, listEndpoint("films")),
  route("getFilm", ["v1", "films", filmId], ONE_TABLES.films, storedOneEndpoint("films")),
  route("listAttributes", ["v1", "attributes"], LIST_TABLES.attributes, listEndpoint("attributes")),
  route("listChanges", ["v1", "changes"], CHANGES_PARAMETERS, changesEndpoint),
  route("listPlaces", ["v1", "places"], PLACE_PARAMETERS, placesEndpoint),
  // At the origin, beside the markets' base addresses (decision: markets): last, as no /v1 path can match it.
  route("listMarkets", ["markets"], MARKETS_PARAMETERS, marketsEndpoint),
] as const;

/** Every operation id: the OpenAPI document has the text of each (tsc holds it to this list). */
export type OperationId = (typeof ROUTES)[number]["operationId"];

/** Whether a route answers one record: its path ends with that record's id. */
export function isGetOne(route: Route): boolean {
  return typeof route.path.at(-1) !== "string";
}

/** A route's path as the OpenAPI document writes it: `/v1/films/{filmId}`. */
export function templateOf(route: Route): string {
  const segments = route.path.map((segment) => (typeof segment === "string" ? segment : `{${segment.parameter}}`));
  return `/${segments.join("/")}`;
}

/** The endpoint a raw path (still percent-encoded) names and the ids in it; undefined is a 404. */
export function matchRoute(rawPath: string): { endpoint: Endpoint; rawIds: string[] } | undefined {
  const segments = rawPath.split("/");
  if (segments[0] !== "") return undefined;
  next: for (const route of ROUTES) {
    if (route.path.length !== segments.length - 1) continue;
    const rawIds: string[] = [];
    for (let i = 0; i < route.path.length; i++) {
      const segment = segments[i + 1]!;
      const expected = route.path[i]!;
      if (typeof expected !== "string") {
        if (segment === "") continue next;
        rawIds.push(segment);
      } else if (expected !== segment) continue next;
    }
    return { endpoint: route.endpoint, rawIds };
  }
  return undefined;
}
