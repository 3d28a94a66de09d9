/**
 * The one way any failure becomes a response: the spec's error envelope (§7) with the request's
 * id, never internals. Used by the core, the Node listener (a failure outside the core) and the
 * local server (requests Node's parser refuses).
 */
import { toApiError } from "./errors.js";
import type { RateDecision } from "../gate/rate-limit.js";
import { JSON_TYPE, type Outgoing } from "./respond.js";

export function errorResponse(thrown: unknown, requestId: string): Outgoing & { rate?: RateDecision } {
  const error = toApiError(thrown);
  const body = error.toBody(requestId);
  return {
    status: error.status,
    headers: {
      "content-type": JSON_TYPE,
      "cache-control": "no-store",
      ...error.headers,
      "x-request-id": requestId,
      "x-content-type-options": "nosniff",
      "content-length": String(body.length),
    },
    body,
    rate: error.rate,
  };
}
