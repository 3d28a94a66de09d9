/**
 * The secret the gateway shows the function on the internal path (decision: gateway secret). It
 * must never be derivable from anything a reader of the repository, the snapshot or the access
 * data could have, so it is random: written by the build (`npm run gateway-secret`, run by
 * vercel.json's build command) into GATEWAY_SECRET_FILE, which is bundled with both the gateway
 * middleware and the function and is never committed, served or part of the snapshot.
 * GATEWAY_SECRET overrides it. Without a usable secret the internal path stays closed.
 */
import { readFileSync } from "node:fs";

/** Where the build writes the secret: relative to the project root, and to each bundle's root. */
export const GATEWAY_SECRET_FILE = "generated/gateway-secret";
/** A GATEWAY_SECRET shorter than this is refused: a secret must not be guessable. */
export const MIN_SECRET_LENGTH = 32;
/** What the build writes: 32 random bytes in hex. */
export const GENERATED_SECRET = /^[0-9a-f]{64}$/;

export type GatewaySecret = { secret: string; problem?: undefined } | { secret?: undefined; problem: string };

const FIX =
  "redeploy with vercel.json's build command (it runs npm run gateway-secret), or set GATEWAY_SECRET " +
  `to ${MIN_SECRET_LENGTH} or more random characters (openssl rand -hex 32)`;

function readGenerated(file: string | URL): GatewaySecret {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `${GATEWAY_SECRET_FILE} is not in the deployment (${code}) and GATEWAY_SECRET is unset` };
  }
  const secret = text.trim();
  if (!GENERATED_SECRET.test(secret))
    return { problem: `${GATEWAY_SECRET_FILE} does not hold 64 hex digits and GATEWAY_SECRET is unset` };
  return { secret };
}

/**
 * GATEWAY_SECRET when set, else the secret the build bundled in `file`. A problem names the fix;
 * the gateway and the function then keep the internal path closed.
 */
export function resolveGatewaySecret(env: NodeJS.ProcessEnv, file: string | URL): GatewaySecret {
  const resolved = readGeneratedOrOverride(env, file);
  return resolved.problem === undefined
    ? resolved
    : { problem: `no gateway secret: ${resolved.problem}; the internal path stays closed: ${FIX}` };
}

function readGeneratedOrOverride(env: NodeJS.ProcessEnv, file: string | URL): GatewaySecret {
  const override = env.GATEWAY_SECRET;
  if (override === undefined || override === "") return readGenerated(file);
  if (override.length < MIN_SECRET_LENGTH)
    return { problem: `GATEWAY_SECRET has ${override.length} characters, fewer than ${MIN_SECRET_LENGTH}` };
  return { secret: override };
}
