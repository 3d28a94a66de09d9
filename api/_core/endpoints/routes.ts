/**
 * Every endpoint, by its path: a row names the path's segments (`:id` for an id segment, still
 * percent-encoded) and the endpoint that answers it. A new endpoint, a sub-resource such as
 * `/v1/films/{id}/cinemas` included, is a row here, its parameter table and its compose module.
 */
import { changesEndpoint } from "./changes-endpoint.js";
import { listEndpoint } from "./list-endpoints.js";
import { showtimeOneEndpoint, storedOneEndpoint } from "./one-endpoints.js";
import type { Endpoint } from "./serving.js";

interface Route {
  readonly path: readonly string[];
  readonly endpoint: Endpoint;
}

const ID = ":id";

export const ROUTES: readonly Route[] = [
  { path: ["v1", "showtimes"], endpoint: listEndpoint("showtimes") },
  { path: ["v1", "showtimes", ID], endpoint: showtimeOneEndpoint },
  { path: ["v1", "cinemas"], endpoint: listEndpoint("cinemas") },
  { path: ["v1", "cinemas", ID], endpoint: storedOneEndpoint("cinemas") },
  { path: ["v1", "films"], endpoint: listEndpoint("films") },
  { path: ["v1", "films", ID], endpoint: storedOneEndpoint("films") },
  { path: ["v1", "attributes"], endpoint: listEndpoint("attributes") },
  { path: ["v1", "changes"], endpoint: changesEndpoint },
];

/** The endpoint a raw path (still percent-encoded) names and the ids in it; undefined is a 404. */
export function matchRoute(rawPath: string): { endpoint: Endpoint; rawIds: string[] } | undefined {
  const segments = rawPath.split("/");
  if (segments[0] !== "") return undefined;
  next: for (const route of ROUTES) {
    if (route.path.length !== segments.length - 1) continue;
    const rawIds: string[] = [];
    for (let i = 0; i < route.path.length; i++) {
      const segment = segments[i + 1]!;
      if (route.path[i] === ID) {
        if (segment === "") continue next;
        rawIds.push(segment);
      } else if (route.path[i] !== segment) continue next;
    }
    return { endpoint: route.endpoint, rawIds };
  }
  return undefined;
}
