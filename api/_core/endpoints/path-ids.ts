/**
 * The ids of an endpoint's path (routes.ts): each names a record by its parameter and the kind of
 * record it names. A path id that names no record is the 404 of that record (spec §4.4, §4.6),
 * whichever endpoint it is on: its own get-one, or a list of its own (a sub-resource).
 */
import type { SnapshotLists } from "../format/read/snapshot.js";
import type { ParameterTable } from "./parameters/parameter.js";
import { type ApiError, recordNotFound } from "../respond/errors.js";
import { decodeId } from "./parse-request.js";
import type { Endpoint } from "./serving.js";

/** The records a path id can name. */
export type IdResource = "showtimes" | "cinemas" | "films";

export interface PathId {
  /** Its name as a path parameter (OpenAPI, 400s naming it). */
  readonly parameter: string;
  readonly names: IdResource;
}

/** What an endpoint is told of its route: its name (what cursors are bound to), its path's ids, its parameters. */
export interface RouteContext {
  readonly name: string;
  readonly ids: readonly PathId[];
  readonly table: ParameterTable;
}

/** Makes a route's endpoint for that route. */
export type RouteEndpoint = (route: RouteContext) => Endpoint;

/** How messages and the document name one record of each kind. */
export const SINGULAR: Record<IdResource, string> = { showtimes: "showtime", cinemas: "cinema", films: "film" };

/** The path's ids, decoded, each a 400 naming its parameter when it cannot be. */
export function decodePathIds(ids: readonly PathId[], rawIds: readonly string[]): string[] {
  return ids.map((id, i) => decodeId(id.parameter, rawIds[i]!));
}

/** Whether a record with this id is in the snapshot. */
function recordExists(lists: SnapshotLists, resource: IdResource, id: string): boolean {
  return resource === "showtimes" ? lists.showtimes.findById(id) !== undefined : lists[resource].indexOf(id) !== -1;
}

/**
 * Throws the 404 of the first id that names no record. The lists are asked only when there is an
 * id to look up: a record's own page opens none (a cold start's first answer reads its body alone).
 */
export function requireRecords(lists: () => SnapshotLists, ids: readonly PathId[], values: readonly string[]): void {
  ids.forEach((id, i) => {
    if (!recordExists(lists(), id.names, values[i]!)) throw recordNotFound(SINGULAR[id.names], values[i]!);
  });
}

/** The 404 of a record, by the path id naming it. */
export function notFoundFor(id: PathId, value: string): ApiError {
  return recordNotFound(SINGULAR[id.names], value);
}
