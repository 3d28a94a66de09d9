/**
 * `keys pull`'s merge of this copy's access data with Edge Config's item (decision: access file
 * changes). No command removes a key, an organization or a plan's entitlement, so whatever either
 * side has is kept; a key revoked on either side stays revoked; a value both sides changed since
 * the item last pulled or pushed here (`base`) keeps the item's (it is in force; this copy's was
 * never pushed), and each such conflict is a line for the operator, who may set theirs again. A plan's
 * entitlement is one value, its markets included (a set: their order is no change; decision: markets).
 */
import type { AccessFile, Entitlement, KeyRecord, Organization } from "../../api/_core/gate/access-file.js";
import { canonicalJson } from "./sync-record.js";

export interface MergedAccess {
  organizations: Organization[];
  keys: KeyRecord[];
  /** One line per value both sides changed, saying which was kept. */
  conflicts: string[];
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * Three-way choice of a value: the side that changed it; the item's when both did, differently.
 * `alike` says when two values mean the same.
 */
function choose<T>(
  base: T | undefined,
  local: T | undefined,
  item: T | undefined,
  alike: (a: T | undefined, b: T | undefined) => boolean = same,
): { value: T | undefined; both: boolean } {
  if (alike(local, item) || alike(item, base)) return { value: local, both: false };
  if (alike(local, base)) return { value: item, both: false };
  return { value: item, both: true };
}

/** An entitlement's markets are a set: the same markets in another order are the same entitlement. */
function sameEntitlement(a: Entitlement | undefined, b: Entitlement | undefined): boolean {
  const sorted = (e: Entitlement | undefined) => e && { ...e, markets: e.markets && [...e.markets].sort() };
  return same(sorted(a), sorted(b));
}

/** What two sides' markets of one plan are, when they differ: for the conflict's line. */
function marketsDiffer(mine: Entitlement, theirs: Entitlement): string {
  if (sameEntitlement({ ...mine, markets: theirs.markets }, mine)) return "";
  const named = (e: Entitlement) => e.markets?.join(",") ?? "every market";
  return ` (markets here ${named(mine)}, in Edge Config ${named(theirs)})`;
}

/** Every element of either list once, in the item's order then this copy's; `both` combines one on each side. */
function unionBy<T>(local: T[], item: T[], idOf: (element: T) => string, both: (local: T, item: T) => T): T[] {
  const locals = new Map(local.map((element) => [idOf(element), element]));
  const merged = item.map((element) => {
    const mine = locals.get(idOf(element));
    return mine === undefined ? element : both(mine, element);
  });
  const inItem = new Set(item.map(idOf));
  return [...merged, ...local.filter((element) => !inItem.has(idOf(element)))];
}

function mergeKey(local: KeyRecord, item: KeyRecord, conflicts: string[]): KeyRecord {
  const revoked = local.revoked || item.revoked;
  if (local.sha256 !== item.sha256) {
    conflicts.push(
      `key ${item.id}: this copy's is another key than Edge Config's; kept Edge Config's ` +
        `(${item.revoked ? "revoked" : "active"}), this copy's is gone: create a new key for its holder`,
    );
    return item;
  }
  const { revoked: _l, ...localRest } = local;
  const { revoked: _i, ...itemRest } = item;
  if (!same(localRest, itemRest))
    conflicts.push(`key ${item.id}: its organization or expiry differs here; kept Edge Config's`);
  return { ...item, revoked };
}

function mergeOrganization(
  base: Organization | undefined,
  local: Organization,
  item: Organization,
  conflicts: string[],
): Organization {
  const entitlements = unionBy(
    local.entitlements,
    item.entitlements,
    (e) => e.plan,
    (mine, theirs) => {
      const baseEntitlement = base?.entitlements.find((e) => e.plan === theirs.plan);
      const { value, both } = choose<Entitlement>(baseEntitlement, mine, theirs, sameEntitlement);
      if (!both) return value!;
      const markets = marketsDiffer(mine, theirs);
      conflicts.push(
        `organization ${item.id}, plan ${theirs.plan}: changed here and in Edge Config${markets}; ` +
          "kept Edge Config's (set it again with org set if this copy's should stand)",
      );
      return value!;
    },
  );
  const rateLimit = choose(base?.rateLimit, local.rateLimit, item.rateLimit);
  if (rateLimit.both)
    conflicts.push(
      `organization ${item.id}, rate limit: changed here and in Edge Config; kept Edge Config's ` +
        "(set it again with org rate-limit if this copy's should stand)",
    );
  return { id: item.id, entitlements, ...(rateLimit.value ? { rateLimit: rateLimit.value } : {}) };
}

/**
 * Merges this copy (`local`) with Edge Config's `item`; `base` is the item as last pulled or
 * pushed here (undefined if never: every value the two hold differently is then a conflict).
 */
export function mergeAccess(base: AccessFile | undefined, local: AccessFile, item: AccessFile): MergedAccess {
  const conflicts: string[] = [];
  const organizations = unionBy(
    local.organizations,
    item.organizations,
    (o) => o.id,
    (mine, theirs) =>
      mergeOrganization(
        base?.organizations.find((o) => o.id === theirs.id),
        mine,
        theirs,
        conflicts,
      ),
  );
  const keys = unionBy(
    local.keys,
    item.keys,
    (k) => k.id,
    (mine, theirs) => mergeKey(mine, theirs, conflicts),
  );
  return { organizations, keys, conflicts };
}
