/**
 * Where the gateway's fetch mode sends the internal request, secret and all (decision: gateway
 * origin): a fixed origin, the deployment's own, never the request's URL. Node's launcher builds
 * that URL from X-Forwarded-Host, Host or an absolute-form target, each a client's to choose, so
 * forwarding to it would hand the secret to whatever host a client named. GATEWAY_ORIGIN (scheme
 * and host) overrides VERCEL_URL, the host of the deployment's generated URL, which Vercel sets
 * without a scheme (served over https). Without either, fetch mode forwards nothing.
 */

export type GatewayOrigin = { origin: string; problem?: undefined } | { origin?: undefined; problem: string };

const FIX =
  "set GATEWAY_ORIGIN to the deployment's own origin (https://<its domain>, no path), " +
  "or use GATEWAY_MODE=rewrite, which needs none";

/** A host as VERCEL_URL gives it: a name or address and maybe a port, nothing else. */
const HOST = /^[a-z0-9.-]+(:\d{1,5})?$/i;

/** `text` as an origin (http or https, a host, nothing after it), or undefined. */
function originOf(text: string): string | undefined {
  if (/[?#]/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const plain = url.pathname === "/" && url.username === "" && url.password === "";
  return plain && (url.protocol === "https:" || url.protocol === "http:") ? url.origin : undefined;
}

function fromSetting(env: NodeJS.ProcessEnv): GatewayOrigin {
  const configured = env.GATEWAY_ORIGIN?.trim();
  if (configured) {
    const origin = originOf(configured);
    return origin ? { origin } : { problem: `GATEWAY_ORIGIN ${JSON.stringify(configured)} is not an origin` };
  }
  const deployment = env.VERCEL_URL?.trim();
  if (!deployment) return { problem: "GATEWAY_ORIGIN and VERCEL_URL are unset" };
  const origin = HOST.test(deployment) ? originOf(`https://${deployment}`) : undefined;
  return origin ? { origin } : { problem: `VERCEL_URL ${JSON.stringify(deployment)} is not a host` };
}

/** GATEWAY_ORIGIN when set, else https://VERCEL_URL; a problem names the fix, and fetch mode then answers 503. */
export function resolveGatewayOrigin(env: NodeJS.ProcessEnv): GatewayOrigin {
  const resolved = fromSetting(env);
  return resolved.problem === undefined
    ? resolved
    : { problem: `no fixed origin for the gateway's fetch mode: ${resolved.problem}; it forwards nothing: ${FIX}` };
}
