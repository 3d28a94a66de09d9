/**
 * The keys commands as pure changes to an access file: each returns the new file (or none when
 * nothing is written) and the lines to print. The plain key exists only in the result of create.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  accessVersionOf,
  type AccessFile,
  type Entitlement,
  type Organization,
} from "../../api/_core/gate/access-file.js";
import { instantKeyOf } from "../../api/_core/format/primitives/date-time.js";
import type { KeysCommand } from "./args.js";
import { EVERY_MARKET } from "./markets-option.js";
import { formatList } from "./list.js";

/** Recognisable in logs, configs and secret scanners; the rest is 32 random bytes (256 bits). */
export const KEY_PREFIX = "cl_live_";

export interface CommandResult {
  access?: AccessFile;
  lines: string[];
}

/** A request the access file cannot satisfy (unknown key, missing organization): exit status 2. */
export class CommandError extends Error {}

export function generateKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function findOrganization(access: AccessFile, id: string): Organization {
  const organization = access.organizations.find((o) => o.id === id);
  if (!organization)
    throw new CommandError(
      `organization ${JSON.stringify(id)} does not exist; ` +
        `create it with: org set ${id} --plan paid --status active --until DATE`,
    );
  return organization;
}

function newKeyId(access: AccessFile): string {
  for (;;) {
    const id = `key_${randomBytes(6).toString("hex")}`;
    if (!access.keys.some((k) => k.id === id)) return id;
  }
}

function createKey(access: AccessFile, command: Extract<KeysCommand, { name: "create" }>, now: Date): CommandResult {
  findOrganization(access, command.org);
  if (command.keyId !== undefined && access.keys.some((k) => k.id === command.keyId))
    throw new CommandError(`a key with id ${command.keyId} already exists`);
  if (command.expiresAt !== undefined && instantKeyOf(command.expiresAt) <= instantKeyOf(now.toISOString())) {
    throw new CommandError(`--expires ${command.expiresAt} is not in the future`);
  }
  const key = generateKey();
  const id = command.keyId ?? newKeyId(access);
  const record = {
    id,
    organization: command.org,
    sha256: hashKey(key),
    revoked: false,
    ...(command.expiresAt ? { expiresAt: command.expiresAt } : {}),
  };
  const expiry = command.expiresAt ? `, expires ${command.expiresAt}` : ", no expiry";
  return {
    access: { ...access, keys: [...access.keys, record] },
    // The key is the last line, alone, so scripts can take it with `tail -n 1`.
    lines: [
      `created key ${id} for organization ${command.org}${expiry}`,
      "the key is shown only now; store it in a secret manager:",
      key,
    ],
  };
}

function revokeKey(access: AccessFile, keyId: string): CommandResult {
  const key = access.keys.find((k) => k.id === keyId);
  if (!key) throw new CommandError(`no key has the id ${JSON.stringify(keyId)} (see: list)`);
  if (key.revoked) return { lines: [`key ${keyId} was already revoked`] };
  return {
    access: { ...access, keys: access.keys.map((k) => (k.id === keyId ? { ...k, revoked: true } : k)) },
    lines: [`revoked key ${keyId} of organization ${key.organization}`],
  };
}

type OrgSet = Extract<KeysCommand, { name: "org-set" }>;

/**
 * The markets the plan's entitlement is to cover: those named, none for `all` (every market), else the
 * ones it covered: renewing a plan never widens what was sold (decision: markets).
 */
function marketsAfter(command: OrgSet, previous: Entitlement | undefined): string[] | undefined {
  if (command.markets === undefined) return previous?.markets;
  return command.markets === EVERY_MARKET ? undefined : command.markets;
}

/**
 * Sets the organization's entitlement of one plan (replacing an earlier one of that plan), creating the
 * organization if needed.
 */
function setOrganization(access: AccessFile, command: OrgSet): CommandResult {
  if (command.validFrom !== undefined && instantKeyOf(command.validFrom) >= instantKeyOf(command.validUntil)) {
    throw new CommandError(`--from ${command.validFrom} must be before --until ${command.validUntil}`);
  }
  const existing = access.organizations.find((o) => o.id === command.org);
  const entitlement: Entitlement = { plan: command.plan, status: command.status };
  if (command.validFrom !== undefined) entitlement.validFrom = command.validFrom;
  entitlement.validUntil = command.validUntil;
  const markets = marketsAfter(
    command,
    existing?.entitlements.find((e) => e.plan === command.plan),
  );
  if (markets !== undefined) entitlement.markets = markets;
  const organization: Organization = existing
    ? { ...existing, entitlements: [...existing.entitlements.filter((e) => e.plan !== command.plan), entitlement] }
    : { id: command.org, entitlements: [entitlement] };
  const organizations = existing
    ? access.organizations.map((o) => (o === existing ? organization : o))
    : [...access.organizations, organization];
  // Named whenever the plan covers some markets only, kept ones included: the operator sees what is sold.
  let covers = markets ? `, markets ${markets.join(",")}` : "";
  if (command.markets === EVERY_MARKET) covers = ", every market";
  const lines = [
    `${existing ? "updated" : "created"} organization ${command.org}: ` +
      `${command.plan} ${command.status} until ${command.validUntil}${covers}`,
  ];
  if (command.plan !== "paid" || command.status !== "active")
    lines.push("note: only plan paid with status active grants access to the API");
  return { access: { ...access, organizations }, lines };
}

function setRateLimit(access: AccessFile, command: Extract<KeysCommand, { name: "org-rate-limit" }>): CommandResult {
  findOrganization(access, command.org);
  const rateLimit = { requests: command.requests, windowSeconds: command.windowSeconds };
  return {
    access: {
      ...access,
      organizations: access.organizations.map((o) => (o.id === command.org ? { ...o, rateLimit } : o)),
    },
    lines: [`organization ${command.org} may make ${command.requests} requests per ${command.windowSeconds} s`],
  };
}

/** A command that reads or changes the access file alone (pull also talks to Edge Config: sync.ts). */
export type FileCommand = Exclude<KeysCommand, { name: "pull" }>;

/** Applies a command; `access` is undefined when the file does not exist yet. */
export function applyCommand(
  access: AccessFile | undefined,
  command: FileCommand,
  now: Date,
  file: string,
): CommandResult {
  if (access === undefined && command.name !== "org-set")
    throw new CommandError(
      `${file} does not exist; start one with: org set ID --plan paid --status active --until DATE`,
    );
  const current = access ?? { organizations: [], keys: [] };
  const result = runCommand(current, command, now);
  if (!result.access) return result;
  if (accessVersionOf(current) >= Number.MAX_SAFE_INTEGER)
    throw new CommandError(`${file} is at version ${accessVersionOf(current)}, the last one a change can follow`);
  // Every change is one version on (decision: revocation in seconds): readers never go back to a lower one.
  const { organizations, keys } = result.access;
  return { ...result, access: { version: accessVersionOf(current) + 1, organizations, keys } };
}

function runCommand(current: AccessFile, command: FileCommand, now: Date): CommandResult {
  switch (command.name) {
    case "create":
      return createKey(current, command, now);
    case "revoke":
      return revokeKey(current, command.keyId);
    case "list":
      return { lines: formatList(current, now) };
    case "org-set":
      return setOrganization(current, command);
    case "org-rate-limit":
      return setRateLimit(current, command);
  }
}
