/**
 * `GET /v1/changes` (decision: changes feed): every page composed, the same bytes for the same snapshot, token,
 * cursor and limit.
 */
import { composeChangesInto } from "../compose/compose-changes.js";
import { parseChangesRequest } from "./parse-request.js";
import type { RouteEndpoint } from "./path-ids.js";

/** The feed parses by its own table (CHANGES_PARAMETERS), which its route row names too. */
export const changesEndpoint: RouteEndpoint = () => ({
  answer(_, rawQuery, serving) {
    const request = parseChangesRequest(rawQuery, serving.snapshot.manifest.market?.id);
    const identity = `changes|${request.binding}|${JSON.stringify(request.position ?? null)}`;
    return serving.composed(identity, (out) => composeChangesInto(serving.snapshot, request, out));
  },
});
