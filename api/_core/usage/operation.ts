/**
 * What a counted request asked for (decision: usage): the OpenAPI operation id of its route, the MCP
 * tool a tools/call named, `mcp` for any other MCP message, and `other` for a target no route names
 * (its 404). The paths are the route table's templates, written here so that the gateway, which
 * bundles no endpoint, can name operations too: tsc holds the keys to the route table's operation ids
 * and test/usage-counter.test.ts each template to its route's.
 */
import { isMcpTarget } from "../endpoints/mcp-path.js";
import type { OperationId } from "../endpoints/routes.js";

export const OPERATION_PATHS = {
  listShowtimes: "/v1/showtimes",
  getShowtime: "/v1/showtimes/{showtimeId}",
  listCinemas: "/v1/cinemas",
  getCinema: "/v1/cinemas/{cinemaId}",
  listFilms: "/v1/films",
  getFilm: "/v1/films/{filmId}",
  listAttributes: "/v1/attributes",
  listChanges: "/v1/changes",
  listPlaces: "/v1/places",
  listMarkets: "/markets",
} as const satisfies Record<OperationId, string>;

/** The MCP endpoint's own operation: a message that calls no tool (initialize, tools/list, a refusal). */
export const MCP_OPERATION = "mcp";
/** A target that names no operation: the unknown-path 404. */
export const NO_OPERATION = "other";

/** Each template as its segments after the leading "/", undefined where an id goes. */
const TEMPLATES: ReadonlyArray<[string, ReadonlyArray<string | undefined>]> = Object.entries(OPERATION_PATHS).map(
  ([operation, template]) => [
    operation,
    template
      .slice(1)
      .split("/")
      .map((s) => (s.startsWith("{") ? undefined : s)),
  ],
);

/** Whether `path` (from 0 to `end`) has a template's segments: compared in place, nothing allocated per request. */
function fits(path: string, end: number, template: ReadonlyArray<string | undefined>): boolean {
  let at = 1;
  for (let i = 0; i < template.length; i++) {
    const next = path.indexOf("/", at);
    const segmentEnd = next === -1 || next > end ? end : next;
    const literal = template[i];
    if (literal === undefined ? segmentEnd === at : segmentEnd - at !== literal.length || !path.startsWith(literal, at))
      return false;
    // The last segment must end the path; any other must be followed by "/".
    if ((i === template.length - 1) !== (segmentEnd === end)) return false;
    at = segmentEnd + 1;
  }
  return true;
}

/** The operation of a raw path (still percent-encoded) up to `end`, as the route table matches it; undefined: none. */
function routeOperationOf(path: string, end: number): string | undefined {
  if (path[0] !== "/") return undefined;
  for (const [operation, template] of TEMPLATES) if (fits(path, end, template)) return operation;
  return undefined;
}

/** The operation a target (origin-form) asks for; `tool` is the tool an MCP tools/call named, if any. */
export function operationOf(url: string, tool?: string): string {
  if (isMcpTarget(url)) return tool ?? MCP_OPERATION;
  const queryAt = url.indexOf("?");
  return routeOperationOf(url, queryAt === -1 ? url.length : queryAt) ?? NO_OPERATION;
}
