/**
 * `keys … --push`: writes the access file to Vercel Edge Config through its REST API, so a
 * revocation, a new key or an entitlement change is in force on the deployment within seconds,
 * without a redeploy (decision: revocation in seconds). The whole file goes into one item,
 * `access`, which the gateway and the function read (api/_adapters/edge-config-access.ts).
 *
 * EDGE_CONFIG (the connection string the deployment reads with) or EDGE_CONFIG_ID names the store;
 * VERCEL_API_TOKEN (or VERCEL_TOKEN) is a token allowed to write it; VERCEL_TEAM_ID the team that
 * owns it, if any; VERCEL_API_URL replaces https://api.vercel.com (a stub in tests).
 */
import type { AccessFile } from "../../api/_core/gate/access-file.js";
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

export function pushTargetFromEnvironment(env: NodeJS.ProcessEnv): PushTarget {
  const edgeConfigId = env.EDGE_CONFIG_ID ?? (env.EDGE_CONFIG ? edgeConfigIdOf(env.EDGE_CONFIG) : undefined);
  if (!edgeConfigId || !ID.test(edgeConfigId))
    throw new PushError(
      edgeConfigId
        ? `the Edge Config id ${JSON.stringify(edgeConfigId)} is not one (ecfg_…)`
        : "--push needs EDGE_CONFIG (the deployment's connection string) or EDGE_CONFIG_ID",
    );
  const token = env.VERCEL_API_TOKEN ?? env.VERCEL_TOKEN;
  if (!token) throw new PushError("--push needs VERCEL_API_TOKEN: a Vercel token allowed to write the Edge Config");
  const apiUrl = (env.VERCEL_API_URL ?? "https://api.vercel.com").replace(/\/+$/, "");
  return { apiUrl, edgeConfigId, token, teamId: env.VERCEL_TEAM_ID || undefined };
}

/** Upserts the item; throws PushError with what Edge Config said. */
export async function pushAccess(target: PushTarget, access: AccessFile): Promise<void> {
  const url = new URL(`${target.apiUrl}/v1/edge-config/${target.edgeConfigId}/items`);
  if (target.teamId) url.searchParams.set("teamId", target.teamId);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "PATCH",
      headers: { authorization: `Bearer ${target.token}`, "content-type": "application/json" },
      body: JSON.stringify({ items: [{ operation: "upsert", key: ACCESS_ITEM, value: access }] }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new PushError(`cannot reach ${url.origin} (${(error as Error).cause ?? (error as Error).message})`);
  }
  if (response.ok) return;
  const text = await response.text();
  let reason = text.slice(0, 200);
  try {
    reason = JSON.parse(text).error?.message ?? reason;
  } catch {}
  throw new PushError(`Edge Config refused the change: HTTP ${response.status} ${reason}`.trim());
}
