/**
 * Admission, in a gateway's order (decision: order of checks): the key (401), the organization's
 * rate limit (429), its paid entitlement for the request's market (403; decision: markets). A caller
 * without a valid key learns nothing else.
 */
import { isEntitled, type AccessIndex, type AccessSource, type RefusedKey } from "./access.js";
import type { Organization } from "./access-file.js";
import { ApiError, ServiceUnavailable } from "../respond/errors.js";
import { DEFAULT_RATE_LIMIT, type RateDecision, type RateLimiter } from "./rate-limit.js";

/** The key's organization and its rate decision, with the 429 or 403 that refuses it, if any. */
export interface Admission {
  organization: Organization;
  rate: RateDecision;
  /** Returned, not thrown: the log line of a refusal names the organization refused. */
  refusal?: ApiError;
}

/** The bearer token, with the scheme word matched case-insensitively (RFC 9110 §11.1). */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(authorization ?? "");
  return match && match[1]!.toLowerCase() === "bearer" ? match[2] : undefined;
}

/**
 * The 401 of a key the access data knows but refuses (revoked, expired, its organization gone): the
 * same answer as an unknown key's, and the key's id and organization for the log line alone.
 */
export class KnownKeyRefused extends ApiError {
  constructor(
    refusal: ApiError,
    readonly key: RefusedKey,
  ) {
    super(refusal.status, refusal.code, refusal.message, refusal.details, refusal.headers);
  }
}

function unauthorized(authorization: string | readonly string[] | undefined): ApiError {
  const hasHeader = authorization !== undefined;
  let message = "An API key is required: send the header Authorization: Bearer <API_KEY>.";
  if (typeof authorization === "object") {
    message = "Send one Authorization header; this request has several, so it carries no single key.";
  } else if (hasHeader) {
    message =
      bearerToken(authorization) === undefined
        ? "The Authorization header must be the word Bearer, a space and the key: Authorization: Bearer <API_KEY>."
        : "The API key is not valid (unknown, revoked or expired).";
  }
  const challenge = hasHeader
    ? 'Bearer realm="cinema-listings", error="invalid_token"'
    : 'Bearer realm="cinema-listings"';
  return new ApiError(401, "unauthorized", message, undefined, { "www-authenticate": challenge });
}

/**
 * The decision once the key is known and counted, for a request of `market` (undefined: a single-market
 * deployment): admitted, or refused by the rate limit (429) and then the entitlement (403).
 */
export function decideAdmission(
  organization: Organization,
  rate: RateDecision,
  now: Date,
  market: string | undefined,
): Admission {
  if (!rate.allowed) {
    const policy = organization.rateLimit ?? DEFAULT_RATE_LIMIT;
    const message =
      `Rate limit of ${policy.requests} requests per ${policy.windowSeconds} s exceeded; ` +
      `retry in ${rate.resetSeconds} s.`;
    const headers = { "retry-after": String(rate.resetSeconds) };
    return { organization, rate, refusal: new ApiError(429, "rate_limited", message, undefined, headers, rate) };
  }
  if (!isEntitled(organization, now, market)) return { organization, rate, refusal: notEntitled(market, rate) };
  return { organization, rate };
}

/** The 403: for a market, named in the message and in details.market; without one, as before markets. */
function notEntitled(market: string | undefined, rate: RateDecision): ApiError {
  if (market === undefined) {
    const message = "Your organization has no active paid entitlement for this API.";
    return new ApiError(403, "entitlement_required", message, undefined, {}, rate);
  }
  const message =
    `Your organization has no active paid entitlement for the market ${JSON.stringify(market)}; ` +
    "GET /markets lists the markets and which your key may use.";
  return new ApiError(403, "entitlement_required", message, { market }, {}, rate);
}

/** The key's organization, rate-counted and checked; throws the 401 of a key that has none. */
function admitWith(
  index: AccessIndex,
  authorization: string | readonly string[] | undefined,
  limiter: RateLimiter,
  now: Date,
  market: string | undefined,
): Admission | Promise<Admission> {
  const token = typeof authorization === "string" ? bearerToken(authorization) : undefined;
  const check = token === undefined ? undefined : index.checkKey(token, now);
  if (check?.ok === false && check.refused) throw new KnownKeyRefused(unauthorized(authorization), check.refused);
  if (!check?.ok) throw unauthorized(authorization);
  // Data that may be out of date refuses what it knows to refuse, and admits no one (fail closed):
  // a key revoked since is never let in (decision: revocation in seconds). Not counted: no organization is sure.
  if (index.unconfirmed !== undefined) throw new ServiceUnavailable(index.unconfirmed);
  const { organization } = check;
  // Counted per organization, whatever the market: one limit across markets (decision: markets).
  const rate = limiter.hit(organization.id, organization.rateLimit ?? DEFAULT_RATE_LIMIT, now.getTime());
  return rate instanceof Promise
    ? rate.then((decided) => decideAdmission(organization, decided, now, market))
    : decideAdmission(organization, rate, now, market);
}

/**
 * Admits a request, or refuses it: a 401 is thrown (no organization), a 429 or 403 is the
 * admission's `refusal`. Synchronous unless the access data or the rate limiter is read from
 * elsewhere: an in-memory count costs no promise.
 */
export function admit(
  /** The header's value; several values when the request repeats the header (always a 401). */
  authorization: string | readonly string[] | undefined,
  access: AccessSource,
  limiter: RateLimiter,
  now: Date,
  /** The market the request is for: a market id the deployment serves; undefined in a single-market one. */
  market?: string,
): Admission | Promise<Admission> {
  const index = access.current();
  return index instanceof Promise
    ? index.then((ready) => admitWith(ready, authorization, limiter, now, market))
    : admitWith(index, authorization, limiter, now, market);
}
