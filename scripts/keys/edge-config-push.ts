/**
 * `keys … --push`: writes the access file to Vercel Edge Config through its REST API, so a
 * revocation, a new key or an entitlement change is in force on the deployment within seconds,
 * without a redeploy (decision: revocation in seconds). The whole file goes into one item,
 * `access`, which the gateway and the function read (api/_adapters/edge-config-access.ts).
 * `readItem` reads the item back through the same API, which answers the latest write (the
 * connection string's endpoint may answer a copy seconds old): push and pull compare with it.
 *
 * EDGE_CONFIG (the connection string the deployment reads with) or EDGE_CONFIG_ID names the store;
 * VERCEL_API_TOKEN (or VERCEL_TOKEN) is a token allowed to write it; VERCEL_TEAM_ID the team that
 * owns it, if any; VERCEL_API_URL replaces https://api.vercel.com (a stub in tests).
 */
import { parseAccessFile, type AccessFile } from "../../api/_core/gate/access-file.js";
import { ACCESS_ITEM } from "../../api/_adapters/edge-config-access.js";

export interface PushTarget {
  apiUrl: string;
  edgeConfigId: string;
  token: string;
  teamId?: string;
}

/** A push that cannot be made as configured, or that Edge Config refused. */
export class PushError extends Error {}

const ID = /^ecfg_[A-Za-z0-9]+$/;

/**
 * The store's id in a connection string (`https://edge-config.vercel.com/ecfg_…?token=…`, `edge-config:id=…`, or
 * another host's URL).
 */
export function edgeConfigIdOf(connectionString: string): string | undefined {
  if (connectionString.startsWith("edge-config:"))
    return new URLSearchParams(connectionString.slice("edge-config:".length)).get("id") ?? undefined;
  try {
    const url = new URL(connectionString);
    return url.searchParams.get("id") ?? url.pathname.split("/")[1] ?? undefined;
  } catch {
    return undefined;
  }
}

/** Where to push (or pull) from the environment; `needer` names what asked, in the messages. */
export function pushTargetFromEnvironment(env: NodeJS.ProcessEnv, needer = "--push"): PushTarget {
  const edgeConfigId = env.EDGE_CONFIG_ID ?? (env.EDGE_CONFIG ? edgeConfigIdOf(env.EDGE_CONFIG) : undefined);
  if (!edgeConfigId || !ID.test(edgeConfigId))
    throw new PushError(
      edgeConfigId
        ? `the Edge Config id ${JSON.stringify(edgeConfigId)} is not one (ecfg_…)`
        : `${needer} needs EDGE_CONFIG (the deployment's connection string) or EDGE_CONFIG_ID`,
    );
  const token = env.VERCEL_API_TOKEN ?? env.VERCEL_TOKEN;
  if (!token) throw new PushError(`${needer} needs VERCEL_API_TOKEN: a Vercel token allowed to write the Edge Config`);
  const apiUrl = (env.VERCEL_API_URL ?? "https://api.vercel.com").replace(/\/+$/, "");
  return { apiUrl, edgeConfigId, token, teamId: env.VERCEL_TEAM_ID || undefined };
}

function apiUrl(target: PushTarget, path: string): URL {
  const url = new URL(`${target.apiUrl}/v1/edge-config/${target.edgeConfigId}${path}`);
  if (target.teamId) url.searchParams.set("teamId", target.teamId);
  return url;
}

async function send(url: URL, target: PushTarget, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, {
      ...init,
      headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new PushError(`cannot reach ${url.origin} (${(error as Error).cause ?? (error as Error).message})`);
  }
}

async function reasonOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    return JSON.parse(text).error?.message ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}

/** The same data with members in the order `npm run keys` writes them (a store may keep its own). */
function inFileOrder(access: AccessFile): AccessFile {
  const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });
  return {
    ...optional("version", access.version),
    organizations: access.organizations.map((o) => ({
      id: o.id,
      entitlements: o.entitlements.map((e) => ({
        plan: e.plan,
        status: e.status,
        ...optional("validFrom", e.validFrom),
        ...optional("validUntil", e.validUntil),
      })),
      ...optional(
        "rateLimit",
        o.rateLimit && { requests: o.rateLimit.requests, windowSeconds: o.rateLimit.windowSeconds },
      ),
    })),
    keys: access.keys.map((k) => ({
      id: k.id,
      organization: k.organization,
      sha256: k.sha256,
      revoked: k.revoked,
      ...optional("expiresAt", k.expiresAt),
    })),
  };
}

/**
 * The item as Edge Config holds it now: undefined when there is none; PushError when it cannot be
 * read or is not an access file (nothing can be compared with it then).
 */
export async function readItem(target: PushTarget): Promise<AccessFile | undefined> {
  const response = await send(apiUrl(target, `/item/${ACCESS_ITEM}`), target);
  if (response.status === 404) return undefined;
  if (!response.ok)
    throw new PushError(`Edge Config did not answer the read: HTTP ${response.status} ${await reasonOf(response)}`);
  let value: unknown;
  try {
    ({ value } = JSON.parse(await response.text()) as { value?: unknown });
  } catch (error) {
    throw new PushError(`Edge Config's answer to the read is not an item (${(error as Error).message})`);
  }
  if (value === undefined || value === null) return undefined;
  try {
    return inFileOrder(parseAccessFile(JSON.stringify(value), `Edge Config's item ${ACCESS_ITEM}`));
  } catch (error) {
    throw new PushError(`${(error as Error).message}; correct or replace it in Vercel's dashboard`);
  }
}

/**
 * Upserts the item; throws PushError with what Edge Config said. Unconditional: the API has no
 * compare-and-swap (decision: access file changes).
 */
export async function pushAccess(target: PushTarget, access: AccessFile): Promise<void> {
  const body = JSON.stringify({ items: [{ operation: "upsert", key: ACCESS_ITEM, value: access }] });
  const response = await send(apiUrl(target, "/items"), target, { method: "PATCH", body });
  if (response.ok) return;
  throw new PushError(`Edge Config refused the change: HTTP ${response.status} ${await reasonOf(response)}`.trim());
}
