/** Key and entitlement checks against an access file (spec §5; decision: order of checks). */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { parseAccessFile, type AccessFile, type KeyRecord, type Organization } from "./access-file.js";
import { instantKeyOf, instantKeyOfEpochMs } from "./format/primitives/date-time.js";

export type KeyCheck = { ok: true; key: KeyRecord; organization: Organization } | { ok: false };

/** Lookup tables of one version of the access file. */
export class AccessIndex {
  private readonly keysByHash = new Map<string, KeyRecord>();
  private readonly organizations = new Map<string, Organization>();

  constructor(access: AccessFile) {
    for (const org of access.organizations) this.organizations.set(org.id, org);
    for (const key of access.keys) this.keysByHash.set(key.sha256, key);
  }

  /** A key is valid when its hash is known, it is not revoked or expired, and its organization exists. */
  checkKey(plainKey: string, now: Date): KeyCheck {
    const hash = createHash("sha256").update(plainKey, "utf8").digest("hex");
    const key = this.keysByHash.get(hash);
    if (!key || key.revoked) return { ok: false };
    if (key.expiresAt !== undefined && instantKeyOfEpochMs(now.getTime()) >= instantKeyOf(key.expiresAt))
      return { ok: false };
    const organization = this.organizations.get(key.organization);
    return organization ? { ok: true, key, organization } : { ok: false };
  }
}

/** True when one entitlement is a paid, active plan and now lies in [validFrom, validUntil). */
export function isEntitled(organization: Organization, now: Date): boolean {
  const instant = instantKeyOfEpochMs(now.getTime());
  return organization.entitlements.some(
    (e) =>
      e.plan === "paid" &&
      e.status === "active" &&
      (e.validFrom === undefined || instant >= instantKeyOf(e.validFrom)) &&
      (e.validUntil === undefined || instant < instantKeyOf(e.validUntil)),
  );
}

export interface AccessSource {
  /** The access data in force now: at once, or once a source read at run time has answered. */
  current(): AccessIndex | Promise<AccessIndex>;
}

/** Access data given once (an environment variable on Vercel, or tests). */
export function staticAccess(text: string, source?: string): AccessSource {
  const index = new AccessIndex(parseAccessFile(text, source));
  return { current: () => index };
}

/**
 * Access data from a file, re-read when the file changes so revocations take effect without a
 * restart. A broken edit keeps the last good version in force (and is reported once), rather
 * than locking every client out.
 */
export function fileAccess(path: string, onReloadError: (message: string) => void = () => {}): AccessSource {
  const stampOf = () => {
    const stat = statSync(path);
    return `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  };
  let stamp = stampOf();
  let index = new AccessIndex(parseAccessFile(readFileSync(path, "utf8"), path));
  let checkedAt = Date.now();
  return {
    current() {
      if (Date.now() - checkedAt < 200) return index;
      checkedAt = Date.now();
      try {
        const next = stampOf();
        if (next !== stamp) {
          stamp = next;
          index = new AccessIndex(parseAccessFile(readFileSync(path, "utf8"), path));
        }
      } catch (error) {
        onReloadError((error as Error).message);
      }
      return index;
    },
  };
}
