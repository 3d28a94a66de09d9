/**
 * Every endpoint, defined once: its operation id (the OpenAPI document's and the typed client's
 * method), its path, and what answers it. A path segment is a literal or a record's id, named by
 * its parameter and the records it names; the ids of a path are what a list's cursors, entity tags
 * and pages are scoped to, and the 404 of a missing record. Given the route, an endpoint learns
 * its path's ids from here, so a list of a record's own (a sub-resource such as
 * `/v1/films/{filmId}/cinemas`) cannot be left unscoped. A new endpoint is a row here, its
 * parameter table and its compose module; the OpenAPI operations and the client follow the rows.
 */
import { changesEndpoint } from "./changes-endpoint.js";
import { listEndpoint } from "./list-endpoints.js";
import { showtimeOneEndpoint, storedOneEndpoint } from "./one-endpoints.js";
import type { PathId, RouteEndpoint } from "./path-ids.js";
import type { Endpoint } from "./serving.js";

export type { PathId } from "./path-ids.js";

type Segment = string | PathId;

export interface Route {
  readonly operationId: string;
  /** Its segments after the leading "/": literals and ids. */
  readonly path: readonly Segment[];
  /** The path's ids, in path order. */
  readonly ids: readonly PathId[];
  readonly endpoint: Endpoint;
}

const showtimeId: PathId = { parameter: "showtimeId", names: "showtimes" };
const cinemaId: PathId = { parameter: "cinemaId", names: "cinemas" };
const filmId: PathId = { parameter: "filmId", names: "films" };

/** A route row: the endpoint is made for its path, which names the ids it is scoped to. */
function route(operationId: string, path: readonly Segment[], endpoint: RouteEndpoint): Route {
  const ids = path.filter((segment): segment is PathId => typeof segment !== "string");
  // The route's name, as cursors are bound to it: its literal segments after the version.
  const name = path.filter((segment): segment is string => typeof segment === "string" && segment !== "v1").join("/");
  return { operationId, path, ids, endpoint: endpoint({ name, ids }) };
}

export const ROUTES: readonly Route[] = [
  route("listShowtimes", ["v1", "showtimes"], listEndpoint("showtimes")),
  route("getShowtime", ["v1", "showtimes", showtimeId], showtimeOneEndpoint),
  route("listCinemas", ["v1", "cinemas"], listEndpoint("cinemas")),
  route("getCinema", ["v1", "cinemas", cinemaId], storedOneEndpoint("cinemas")),
  route("listFilms", ["v1", "films"], listEndpoint("films")),
  route("getFilm", ["v1", "films", filmId], storedOneEndpoint("films")),
  route("listAttributes", ["v1", "attributes"], listEndpoint("attributes")),
  route("listChanges", ["v1", "changes"], () => changesEndpoint),
];

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
