/**
 * The checks of `vercel build`'s output that concern the gateway (decision: CDN-cached bodies):
 * the middleware is built for Node's web API with the snapshot's manifest (or the markets' index)
 * and runs on the API, MCP, the list of markets and the internal prefix only; the build's secret
 * (decision: gateway secret) is in both bundles and in no static file.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { GATEWAY_SECRET_FILE, GENERATED_SECRET } from "../../api/_adapters/gateway-secret.js";
import { MARKETS_INDEX_FILE } from "../../api/_core/format/primitives/files.js";
import { isMarketsFolder } from "../../api/_core/format/read/markets-folder.js";
import { type CheckFn, KEYLESS_PATHS, listFiles, MIDDLEWARE_DIR, ROUTED_PATHS, type Route } from "./output-layout.js";

/** Where the gateway must not run. */
const UNGATED_PATHS = ["/", "/openapi.json", ...KEYLESS_PATHS, "/v10", "/mcpx", "/_cx"];

/** Where it must: every API path, MCP's, the list of markets and the internal prefix. */
const gatedPaths = () => ROUTED_PATHS.filter((p) => !KEYLESS_PATHS.includes(p)).concat("/_c");

/** The checks of the gateway middleware: built for Node's web API, with the manifest, on the right paths. */
export function checkMiddleware(outputDir: string, snapshotDir: string, routes: Route[], check: CheckFn): void {
  const dir = path.join(outputDir, MIDDLEWARE_DIR);
  const configFile = path.join(dir, ".vc-config.json");
  const config = existsSync(configFile)
    ? (JSON.parse(readFileSync(configFile, "utf8")) as { runtime?: string; useWebApi?: boolean })
    : {};
  check(
    "the gateway middleware is built for Node.js with the web API",
    /^nodejs\d+/.test(config.runtime ?? "") && config.useWebApi === true,
    existsSync(configFile) ? `${config.runtime}, useWebApi ${config.useWebApi}` : `${MIDDLEWARE_DIR} is missing`,
  );
  checkBundledIndex(dir, snapshotDir, check);
  const route = routes.find((r) => r.middlewarePath !== undefined);
  const matcher = route?.src ? new RegExp(route.src) : undefined;
  const wrong = [
    ...gatedPaths()
      .filter((p) => !matcher?.test(p))
      .map((p) => `${p} not gated`),
    ...UNGATED_PATHS.filter((p) => matcher?.test(p)).map((p) => `${p} gated`),
  ];
  check(
    "it runs on /v1, /mcp, /markets and the internal prefix only",
    matcher !== undefined && wrong.length === 0,
    wrong.length ? wrong.join(", ") : (route?.middlewarePath ?? "no middleware route"),
  );
}

/**
 * The file the gateway reads its snapshot id from, bundled as built: the manifest, or with markets
 * the markets' index, each market's snapshot id (decision: markets, deployed per market).
 */
function checkBundledIndex(dir: string, snapshotDir: string, check: CheckFn): void {
  const markets = isMarketsFolder(snapshotDir);
  const file = markets ? `snapshot/${MARKETS_INDEX_FILE}` : "snapshot/manifest.json";
  const bundled = path.join(dir, file);
  const built = path.join(snapshotDir, path.basename(file));
  check(
    markets
      ? "it bundles the markets' index (each market's snapshot id it forwards to)"
      : "it bundles the snapshot's manifest (the snapshot id it forwards to)",
    existsSync(bundled) && existsSync(built) && readFileSync(bundled).equals(readFileSync(built)),
    existsSync(bundled) ? file : `${file} is missing`,
  );
}

/** The secret a bundle carries (decision: gateway secret), or why it does not. */
function bundledSecret(file: string | undefined): { secret?: string; detail: string } {
  if (file === undefined || !existsSync(file)) return { detail: "missing" };
  const secret = readFileSync(file, "utf8").trim();
  return GENERATED_SECRET.test(secret) ? { secret, detail: "64 hex digits" } : { detail: "not 64 hex digits" };
}

/**
 * The build's gateway secret: in both bundles, the same, and nowhere a visitor can fetch it (no
 * static file holds it, whatever its name).
 */
export function checkGatewaySecret(outputDir: string, functionFiles: Map<string, string>, check: CheckFn): void {
  const inMiddleware = bundledSecret(path.join(outputDir, MIDDLEWARE_DIR, GATEWAY_SECRET_FILE));
  const inFunction = bundledSecret(functionFiles.get(GATEWAY_SECRET_FILE));
  const same = inMiddleware.secret !== undefined && inMiddleware.secret === inFunction.secret;
  check(
    "the gateway secret the build wrote is bundled with the middleware and the function, the same in both",
    same,
    same ? GATEWAY_SECRET_FILE : `middleware: ${inMiddleware.detail}; function: ${inFunction.detail}`,
  );
  const staticDir = path.join(outputDir, "static");
  const secret = inMiddleware.secret ?? inFunction.secret;
  const exposed = secret
    ? listFiles(staticDir).filter((f) => readFileSync(path.join(staticDir, f), "latin1").includes(secret))
    : [];
  check("no static file holds the gateway secret", exposed.length === 0, exposed.length ? exposed.join(", ") : "none");
}
