/**
 * How a counted request ended, in the buckets an invoice and a support case are read by (decision:
 * usage): a success, a revalidation that sent no body, the client's own mistakes, a missing
 * entitlement, the rate limit, the server's failures; and, on Vercel in `rewrite` mode, what the
 * gateway handed on and the function never answered: the CDN did (a 200, or a 304).
 */
export const OUTCOMES = ["2xx", "304", "400-404", "403", "429", "5xx", "cdn"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * The bucket of a status. `400-404` holds every 4xx but 403 and 429: 400, 401 and 404, and the rarer
 * 405, 406, 413 and 415 of the same kind (a request the client can fix). The API sends no 1xx and no
 * 3xx but 304; were it to, they would count as successes.
 */
export function outcomeOf(status: number): Outcome {
  if (status === 304) return "304";
  if (status < 400) return "2xx";
  if (status === 403) return "403";
  if (status === 429) return "429";
  return status < 500 ? "400-404" : "5xx";
}

export function isOutcome(text: string): text is Outcome {
  return (OUTCOMES as readonly string[]).includes(text);
}
