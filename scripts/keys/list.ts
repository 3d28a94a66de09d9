/** `keys list`: organizations and keys as aligned columns; keys appear only as id and a hash prefix. */
import {
  accessVersionOf,
  type AccessFile,
  type Entitlement,
  type KeyRecord,
  type Organization,
} from "../../api/_core/gate/access-file.js";
import { entitledMarkets } from "../../api/_core/gate/access.js";
import { instantKeyOf } from "../../api/_core/format/primitives/date-time.js";
import { DEFAULT_RATE_LIMIT } from "../../api/_core/gate/rate-limit.js";

/** Enough of the hash to tell keys apart and match one against a leaked key's hash; too little to matter. */
const HASH_PREFIX_CHARS = 8;

function formatTable(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map(
    (row) =>
      `  ${row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd()}`,
  );
}

function formatEntitlement(e: Entitlement): string {
  const markets = e.markets ? ` markets ${e.markets.join(",")}` : "";
  return `${e.plan} ${e.status} ${e.validFrom ?? "…"} → ${e.validUntil ?? "…"}${markets}`;
}

/** Entitled to every market (the plain word, as before markets), to some, or to none. */
function accessNow(organization: Organization, now: Date): string {
  const markets = entitledMarkets(organization, now);
  if (markets === "every") return "entitled";
  return markets.length > 0 ? `entitled: ${markets.join(",")}` : "not entitled";
}

function keyState(key: KeyRecord, access: AccessFile, now: Date): string {
  if (key.revoked) return "revoked";
  if (key.expiresAt !== undefined && instantKeyOf(now.toISOString()) >= instantKeyOf(key.expiresAt)) return "expired";
  if (!access.organizations.some((o) => o.id === key.organization)) return "no such organization";
  return "active";
}

/** The lines of `keys list`, with each key's and organization's standing at `now`. */
export function formatList(access: AccessFile, now: Date): string[] {
  const lines = [`version ${accessVersionOf(access)}`, `organizations (${access.organizations.length})`];
  if (access.organizations.length > 0) {
    const header = ["ID", "ACCESS NOW", "RATE LIMIT", "ENTITLEMENTS"];
    const rows = access.organizations.map((o) => {
      const limit = o.rateLimit ?? DEFAULT_RATE_LIMIT;
      return [
        o.id,
        accessNow(o, now),
        `${limit.requests}/${limit.windowSeconds}s${o.rateLimit ? "" : " (default)"}`,
        o.entitlements.map(formatEntitlement).join("; ") || "(none)",
      ];
    });
    lines.push(...formatTable([header, ...rows]));
  }
  lines.push(`keys (${access.keys.length})`);
  if (access.keys.length > 0) {
    const header = ["ID", "ORGANIZATION", "SHA-256", "STATE", "EXPIRES"];
    const rows = access.keys.map((k) => [
      k.id,
      k.organization,
      `${k.sha256.slice(0, HASH_PREFIX_CHARS)}…`,
      keyState(k, access, now),
      k.expiresAt ?? "never",
    ]);
    lines.push(...formatTable([header, ...rows]));
  }
  return lines;
}
