/**
 * The access file: organizations with entitlements and rate limits, and keys stored only as
 * SHA-256 hashes. Validated by hand rather than with zod to keep the function's cold start
 * small (importing zod alone costs more than the function's 30 ms import budget, docs/performance.md).
 */
import { checkDateTime } from "../format/primitives/date-time.js";
import { MARKET_BOUNDS, MARKET_ID_PATTERN, RESERVED_MARKET_IDS } from "../format/layout/market-rules.js";

export interface Entitlement {
  plan: string;
  status: string;
  validFrom?: string;
  validUntil?: string;
  /** The markets it covers; absent: every market (decision: markets). */
  markets?: string[];
}

export interface RateLimitPolicy {
  requests: number;
  windowSeconds: number;
}

export interface Organization {
  id: string;
  entitlements: Entitlement[];
  rateLimit?: RateLimitPolicy;
}

export interface KeyRecord {
  id: string;
  organization: string;
  sha256: string;
  revoked: boolean;
  expiresAt?: string;
}

export interface AccessFile {
  /**
   * Grows by one with every change `npm run keys` writes; a file without it is version 0. Access
   * data never goes back to a lower version (decision: revocation in seconds).
   */
  version?: number;
  organizations: Organization[];
  keys: KeyRecord[];
}

/** The version of an access file: 0 for one written before versions were. */
export function accessVersionOf(access: AccessFile): number {
  return access.version ?? 0;
}

type Check = (value: unknown, path: string, problems: string[]) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function fields(spec: Record<string, { check: Check; optional?: boolean }>): Check {
  return (value, path, problems) => {
    if (!isObject(value)) return void problems.push(`${path} must be an object`);
    for (const key of Object.keys(value)) if (!(key in spec)) problems.push(`${path}.${key} is not a known field`);
    for (const [key, { check, optional }] of Object.entries(spec)) {
      if (value[key] === undefined) {
        if (!optional) problems.push(`${path}.${key} is required`);
      } else check(value[key], `${path}.${key}`, problems);
    }
  };
}

const nonEmptyString: Check = (v, path, problems) => {
  if (typeof v !== "string" || v === "") problems.push(`${path} must be a non-empty string`);
};
const dateTime: Check = (v, path, problems) => {
  if (typeof v !== "string" || !checkDateTime(v).ok)
    problems.push(`${path} must be a date-time such as 2027-01-01T00:00:00Z`);
};
const positiveInteger: Check = (v, path, problems) => {
  if (!Number.isSafeInteger(v) || (v as number) < 1) problems.push(`${path} must be a whole number of at least 1`);
};
const wholeNumber: Check = (v, path, problems) => {
  if (!Number.isSafeInteger(v) || (v as number) < 0) problems.push(`${path} must be a whole number of at least 0`);
};
const boolean: Check = (v, path, problems) => {
  if (typeof v !== "boolean") problems.push(`${path} must be true or false`);
};
const sha256Hex: Check = (v, path, problems) => {
  if (typeof v !== "string" || !/^[0-9a-f]{64}$/.test(v))
    problems.push(`${path} must be 64 lowercase hex digits (a SHA-256)`);
};
/** 1..100 market ids (the most markets a deployment has), each once; an empty list would cover no market. */
const marketIds: Check = (v, path, problems) => {
  if (!Array.isArray(v) || v.length === 0)
    return void problems.push(`${path} must be a non-empty array of market ids such as ["gb"]; absent: every market`);
  const most = MARKET_BOUNDS.markets[1];
  if (v.length > most) return void problems.push(`${path} names ${v.length} markets; a deployment has at most ${most}`);
  const first = new Map<string, number>();
  v.forEach((id: unknown, i) => {
    const at = `${path}[${i}]`;
    if (typeof id !== "string") return void problems.push(`${at} must be a market id (a string)`);
    if (!MARKET_ID_PATTERN.test(id))
      return void problems.push(`${at} must be a market id: 2..32 lowercase letters, digits or "-", not ${quoted(id)}`);
    if (RESERVED_MARKET_IDS.includes(id))
      return void problems.push(`${at} ${quoted(id)} can be no market's id: the server answers /${id} itself`);
    const seen = first.get(id);
    if (seen !== undefined) return void problems.push(`${at} ${quoted(id)} is already at ${path}[${seen}]`);
    first.set(id, i);
  });
};
const quoted = (text: string) => JSON.stringify(text.slice(0, 40));
const arrayOf =
  (item: Check): Check =>
  (v, path, problems) => {
    if (!Array.isArray(v)) return void problems.push(`${path} must be an array`);
    v.forEach((entry, i) => item(entry, `${path}[${i}]`, problems));
  };

const checkAccessFile = fields({
  version: { check: wholeNumber, optional: true },
  organizations: {
    check: arrayOf(
      fields({
        id: { check: nonEmptyString },
        entitlements: {
          check: arrayOf(
            fields({
              plan: { check: nonEmptyString },
              status: { check: nonEmptyString },
              validFrom: { check: dateTime, optional: true },
              validUntil: { check: dateTime, optional: true },
              markets: { check: marketIds, optional: true },
            }),
          ),
        },
        rateLimit: {
          check: fields({ requests: { check: positiveInteger }, windowSeconds: { check: positiveInteger } }),
          optional: true,
        },
      }),
    ),
  },
  keys: {
    check: arrayOf(
      fields({
        id: { check: nonEmptyString },
        organization: { check: nonEmptyString },
        sha256: { check: sha256Hex },
        revoked: { check: boolean },
        expiresAt: { check: dateTime, optional: true },
      }),
    ),
  },
});

function findDuplicates(values: string[], what: string, problems: string[]): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) problems.push(`${what} ${JSON.stringify(value)} appears more than once`);
    seen.add(value);
  }
}

/** Parses and validates access-file text; throws one Error listing every problem. */
export function parseAccessFile(text: string, source = "access file"): AccessFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON (${(error as Error).message})`);
  }
  const problems: string[] = [];
  checkAccessFile(value, "$", problems);
  if (problems.length === 0) {
    const access = value as AccessFile;
    findDuplicates(
      access.organizations.map((o) => o.id),
      "organization id",
      problems,
    );
    findDuplicates(
      access.keys.map((k) => k.id),
      "key id",
      problems,
    );
    findDuplicates(
      access.keys.map((k) => k.sha256),
      "key hash",
      problems,
    );
  }
  if (problems.length > 0) throw new Error(`${source} is not valid: ${problems.join("; ")}`);
  return value as AccessFile;
}
