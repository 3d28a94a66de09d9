/**
 * The checks `npm run verify:vercel` runs on .vercel/output (docs/operations.md, "Deploying to
 * Vercel"), on small fake outputs: a good one passes every check, and each broken variant fails
 * exactly the check meant for it.
 */
import {
  chmodSync,
  closeSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  checkVercelOutput,
  FUNCTION_DIR,
  FUNCTION_SIZE_LIMIT,
  MIDDLEWARE_DIR,
  routeOf,
} from "../scripts/vercel/output.js";
import { GATEWAY_SECRET_FILE } from "../api/_adapters/gateway-secret.js";
import { makeTempDir, removeDir, setPlainModes, writeFiles } from "./helpers/build-helpers.js";

/** The route `vercel build` (58.10.0) wrote for middleware.ts's matcher (with /markets, as it writes each path). */
const MIDDLEWARE_ROUTE = {
  src:
    "^\\/v1[\\/#\\?]?$|^\\/v1(?:\\/((?:[^\\/#\\?]+?)(?:\\/(?:[^\\/#\\?]+?))*))?[\\/#\\?]?$|^\\/mcp[\\/#\\?]?$|" +
    "^\\/markets[\\/#\\?]?$|^\\/_c[\\/#\\?]?$|^\\/_c(?:\\/((?:[^\\/#\\?]+?)(?:\\/(?:[^\\/#\\?]+?))*))?[\\/#\\?]?$",
  middlewarePath: "middleware",
  continue: true,
  override: true,
};
/** The routes `vercel build` wrote for this repository's vercel.json. */
const GOOD_ROUTES = [
  MIDDLEWARE_ROUTE,
  { handle: "filesystem" },
  { src: "^/healthz$", dest: "/api/v1", check: true },
  { src: "^/v1$", dest: "/api/v1", check: true },
  { src: "^/v1(?:/(.*))$", dest: "/api/v1", check: true },
  { src: "^/mcp$", dest: "/api/v1", check: true },
  { src: "^/markets$", dest: "/api/v1", check: true },
  { src: "^/_c(?:/(.*))$", dest: "/api/v1", check: true },
  {
    src: "^/\\.well-known(?:/(oauth-protected-resource|oauth-authorization-server|openid-configuration))$",
    dest: "/api/v1",
    check: true,
  },
  {
    src: "^/\\.well-known(?:/(oauth-protected-resource|oauth-authorization-server|openid-configuration))(?:/(.*))$",
    dest: "/api/v1",
    check: true,
  },
  { src: "^/register$", dest: "/api/v1", check: true },
  { src: "^/api(/.*)?$", status: 404 },
  { handle: "error" },
  { status: 404, src: "^(?!/api).*$", dest: "/404.html" },
];
/** What it wrote for the first vercel.json (`/v1/:path*`): the named parameter comes back as a query. */
const NAMED_PARAMETER_ROUTES = [
  { handle: "filesystem" },
  { src: "^/v1(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?$", dest: "/api/v1?path=$1", check: true },
  { src: "^/api(/.*)?$", status: 404 },
];

let root: string;
const out = () => path.join(root, "output");
const func = (relative = "") => path.join(out(), FUNCTION_DIR, relative);
const middleware = (relative = "") => path.join(out(), MIDDLEWARE_DIR, relative);
const withRoutes = (routes: unknown[]) => writeFiles(out(), { "config.json": JSON.stringify({ routes }) });
const run = () => checkVercelOutput(out(), root, path.join(root, "public"), path.join(root, "snapshot"));
const failing = () =>
  run()
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

const SNAPSHOT = {
  "manifest.json": '{"format":3}',
  "bodies.blocks": "gz",
  "bodies.index": "keys",
  "records.blocks": "rec",
  "index.pages": "idx",
};
const PUBLIC = { "index.html": "<redoc>", "openapi.json": '{"openapi":"3.1.0"}' };
/** The secret the build bundles with both pieces (decision: gateway secret). */
const SECRET = "7c".repeat(32);
const SECRET_CHECK =
  "the gateway secret the build wrote is bundled with the middleware and the function, the same in both";
const MODES_CHECK =
  "every file the function and the middleware read is readable by other users, every folder listable and traversable";
const LINKS_CHECK = "every link in the function and the middleware leads to a file or folder inside it";
const SIZE_CHECK = "its uncompressed size is under 250 MB";

/** A file of `bytes` that takes no disk space (sparse). */
function writeSparse(file: string, bytes: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, "w");
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

/**
 * A package the function holds as a link to the installed one, as `vercel build` bundles it from a
 * node_modules whose packages are links out of the project: `to` is the link's text.
 */
function linkInstalledPackage(piece: (relative?: string) => string, to: (installed: string) => string): void {
  const installed = path.join(root, "installed/pino");
  writeFiles(installed, { "index.js": "module.exports = {};" });
  writeSparse(path.join(installed, "prebuilt.node"), FUNCTION_SIZE_LIMIT);
  mkdirSync(piece("node_modules"), { recursive: true });
  symlinkSync(to(installed), piece("node_modules/pino"));
}

beforeEach(() => {
  root = makeTempDir("vercel-output");
  writeFiles(path.join(root, "snapshot"), SNAPSHOT);
  writeFiles(path.join(root, "public"), PUBLIC);
  writeFiles(out(), { "config.json": JSON.stringify({ version: 3, routes: GOOD_ROUTES }) });
  writeFiles(path.join(out(), "static"), PUBLIC);
  writeFiles(func(), {
    ".vc-config.json": JSON.stringify({
      handler: "api/v1.js",
      runtime: "nodejs20.x",
      launcherType: "Nodejs",
      shouldAddHelpers: true,
    }),
    "api/v1.js": "export default () => {}",
    ...Object.fromEntries(Object.entries(SNAPSHOT).map(([file, text]) => [`snapshot/${file}`, text])),
    [GATEWAY_SECRET_FILE]: `${SECRET}\n`,
  });
  writeFiles(middleware(), {
    ".vc-config.json": JSON.stringify({
      handler: "middleware.js",
      runtime: "nodejs20.x",
      launcherType: "Nodejs",
      useWebApi: true,
    }),
    "middleware.js": "export default () => {}",
    "snapshot/manifest.json": SNAPSHOT["manifest.json"],
    [GATEWAY_SECRET_FILE]: `${SECRET}\n`,
  });
  setPlainModes(out());
});
afterEach(() => removeDir(root));

describe("checkVercelOutput", () => {
  test("a good output passes every check", () => {
    const { checks, facts } = run();
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(facts.snapshotFiles).toBe(5);
    expect(facts.staticFiles).toEqual(["index.html", "openapi.json"]);
  });

  test(
    "snapshot files and the secret mapped from the project (filePathMap, without --standalone) count as " + "bundled",
    () => {
      rmSync(func("snapshot/bodies.blocks"));
      rmSync(func(GATEWAY_SECRET_FILE));
      writeFiles(root, { [GATEWAY_SECRET_FILE]: SECRET });
      const config = JSON.parse(readFileSync(func(".vc-config.json"), "utf8"));
      const filePathMap = {
        "snapshot/bodies.blocks": "snapshot/bodies.blocks",
        [GATEWAY_SECRET_FILE]: GATEWAY_SECRET_FILE,
      };
      writeFileSync(func(".vc-config.json"), JSON.stringify({ ...config, filePathMap }));
      expect(failing()).toEqual([]);
    },
  );

  // What breaks, how, and the checks that must fail.
  test.each<[string, () => void, string[]]>([
    [
      "a snapshot file left out of the bundle",
      () => rmSync(func("snapshot/records.blocks")),
      ["it bundles the whole snapshot"],
    ],
    [
      "a bundled snapshot file that differs from the built one",
      () => writeFileSync(func("snapshot/manifest.json"), "{}"),
      ["it bundles the whole snapshot"],
    ],
    ["no handler file", () => rmSync(func("api/v1.js")), ["its handler file is in the bundle"]],
    ["no gateway secret beside the function", () => rmSync(func(GATEWAY_SECRET_FILE)), [SECRET_CHECK]],
    ["no gateway secret beside the middleware", () => rmSync(middleware(GATEWAY_SECRET_FILE)), [SECRET_CHECK]],
    [
      "another secret in each piece",
      () => writeFiles(middleware(), { [GATEWAY_SECRET_FILE]: "8d".repeat(32) }),
      [SECRET_CHECK],
    ],
    [
      "a secret that is not 64 hex digits",
      () => {
        writeFiles(middleware(), { [GATEWAY_SECRET_FILE]: "secret" });
        writeFiles(func(), { [GATEWAY_SECRET_FILE]: "secret" });
      },
      [SECRET_CHECK],
    ],
    [
      "the gateway secret inside a static file of any name",
      () => writeFiles(path.join(out(), "static"), { "robots.txt": `# ${SECRET}` }),
      ["no static file holds the gateway secret", "static/ is exactly public/ (the documentation)"],
    ],
    [
      "an edge runtime instead of Node.js",
      () => writeFileSync(func(".vc-config.json"), JSON.stringify({ handler: "api/v1.js", runtime: "edge" })),
      ["it runs on Vercel's Node.js runtime"],
    ],
    [
      "the snapshot published under static/",
      () => writeFiles(path.join(out(), "static"), { "snapshot/manifest.json": "{}" }),
      ["static/ holds nothing data-like", "static/ is exactly public/ (the documentation)"],
    ],
    [
      "a data file published under static/",
      () => writeFiles(path.join(out(), "static"), { "index.pages": "idx" }),
      ["static/ holds nothing data-like", "static/ is exactly public/ (the documentation)"],
    ],
    [
      "an access file published under static/",
      () => writeFiles(path.join(out(), "static"), { "demo-access.json": "{}" }),
      ["static/ holds nothing data-like", "static/ is exactly public/ (the documentation)"],
    ],
    [
      "a static file shadowing an API path",
      () => writeFiles(path.join(out(), "static"), { "v1/showtimes": "[]" }),
      ["static/ holds nothing data-like", "static/ is exactly public/ (the documentation)"],
    ],
    [
      "a static page that differs from public/",
      () => writeFiles(path.join(out(), "static"), { "index.html": "old" }),
      ["static/ is exactly public/ (the documentation)"],
    ],
    [
      "a named rewrite parameter, added as ?path=",
      () => withRoutes([MIDDLEWARE_ROUTE, ...NAMED_PARAMETER_ROUTES]),
      ["/v1/* routes to the function, with no query added"],
    ],
    [
      "no rewrite at all",
      () => withRoutes([MIDDLEWARE_ROUTE, { handle: "filesystem" }]),
      ["/v1/* routes to the function, with no query added"],
    ],
    [
      "no middleware",
      () => rmSync(middleware(), { recursive: true }),
      [
        SECRET_CHECK,
        "the gateway middleware is built for Node.js with the web API",
        "it bundles the snapshot's manifest (the snapshot id it forwards to)",
      ],
    ],
    [
      "a middleware for Node's request and response, not the web API",
      () => writeFiles(middleware(), { ".vc-config.json": JSON.stringify({ runtime: "nodejs20.x" }) }),
      ["the gateway middleware is built for Node.js with the web API"],
    ],
    [
      "a middleware with another snapshot's manifest",
      () => writeFiles(middleware(), { "snapshot/manifest.json": '{"format":2}' }),
      ["it bundles the snapshot's manifest (the snapshot id it forwards to)"],
    ],
    [
      "a matcher without the internal prefix",
      () => withRoutes([{ ...MIDDLEWARE_ROUTE, src: "^/v1(/.*)?$" }, ...GOOD_ROUTES.slice(1)]),
      ["it runs on /v1, /mcp, /markets and the internal prefix only"],
    ],
    [
      "a matcher without /mcp (an MCP request would reach the function unchecked)",
      () =>
        withRoutes([
          { ...MIDDLEWARE_ROUTE, src: MIDDLEWARE_ROUTE.src.replace("^\\/mcp[\\/#\\?]?$|", "") },
          ...GOOD_ROUTES.slice(1),
        ]),
      ["it runs on /v1, /mcp, /markets and the internal prefix only"],
    ],
    [
      "/mcp not routed to the function",
      () => withRoutes(GOOD_ROUTES.filter((r) => !("src" in r) || r.src !== "^/mcp$")),
      ["/v1/* routes to the function, with no query added"],
    ],
    [
      "/register not routed to the function (an MCP client's registration would get the platform's 404 page)",
      () => withRoutes(GOOD_ROUTES.filter((r) => !("src" in r) || r.src !== "^/register$")),
      ["/v1/* routes to the function, with no query added"],
    ],
    [
      "a matcher that also takes the OAuth metadata paths (they are answered without a key)",
      () =>
        withRoutes([
          { ...MIDDLEWARE_ROUTE, src: `${MIDDLEWARE_ROUTE.src}|^/\\.well-known(?:/(.*))$` },
          ...GOOD_ROUTES.slice(1),
        ]),
      ["it runs on /v1, /mcp, /markets and the internal prefix only"],
    ],
    [
      "a matcher that also takes the health check",
      () => withRoutes([{ ...MIDDLEWARE_ROUTE, src: `${MIDDLEWARE_ROUTE.src}|^/healthz$` }, ...GOOD_ROUTES.slice(1)]),
      ["it runs on /v1, /mcp, /markets and the internal prefix only"],
    ],
    [
      "no middleware route",
      () => withRoutes(GOOD_ROUTES.slice(1)),
      ["it runs on /v1, /mcp, /markets and the internal prefix only"],
    ],
    [
      "the internal prefix not routed to the function",
      () => withRoutes(GOOD_ROUTES.filter((r) => !("src" in r) || r.src !== "^/_c(?:/(.*))$")),
      ["/v1/* routes to the function, with no query added"],
    ],
    [
      "a bundle of 250 MiB, the limit itself (a sparse file)",
      () => writeSparse(func("big.bin"), FUNCTION_SIZE_LIMIT),
      [SIZE_CHECK],
    ],
    // Not deployed where it leads, and not the function's size on any Node.js line (24's recursive
    // readdir follows links, 20's does not).
    [
      "a package bundled as a link to the installed one (absolute)",
      () => linkInstalledPackage(func, (installed) => installed),
      [LINKS_CHECK],
    ],
    [
      "a package bundled as a link out of the function (relative)",
      () => linkInstalledPackage(func, (installed) => path.relative(func("node_modules"), installed)),
      [LINKS_CHECK],
    ],
    ["a link out of the middleware", () => linkInstalledPackage(middleware, (installed) => installed), [LINKS_CHECK]],
    [
      "a link inside the function to a file that is not there",
      () => {
        mkdirSync(func("node_modules/.bin"), { recursive: true });
        symlinkSync("../pino/cli.js", func("node_modules/.bin/pino"));
      },
      [MODES_CHECK, LINKS_CHECK],
    ],
  ])("%s fails the right checks", (_what, breakIt, expected) => {
    breakIt();
    expect(failing()).toEqual(expected);
  });

  // Vercel may run a piece as a user other than its files' owner (decision: gateway secret): what it
  // reads must be readable by others (o+r), the folders on the way listable and traversable (o+rx).
  test.each<[string, () => void, string[]]>([
    [
      "the function's secret at 0600, only its owner can read it",
      () => chmodSync(func(GATEWAY_SECRET_FILE), 0o600),
      [MODES_CHECK],
    ],
    ["the middleware's secret at 0600", () => chmodSync(middleware(GATEWAY_SECRET_FILE), 0o600), [MODES_CHECK]],
    ["a file its group may read, others not (0640)", () => chmodSync(func("api/v1.js"), 0o640), [MODES_CHECK]],
    ["a file only others may read (0604): enough", () => chmodSync(func("snapshot/index.pages"), 0o604), []],
    ["a folder only its owner may enter (0700)", () => chmodSync(func("generated"), 0o700), [MODES_CHECK]],
    ["a folder others may list but not traverse (0754)", () => chmodSync(middleware("snapshot"), 0o754), [MODES_CHECK]],
    ["a folder others may traverse but not list (0751)", () => chmodSync(func("snapshot"), 0o751), [MODES_CHECK]],
    ["a folder others may list and traverse (0705): enough", () => chmodSync(func("snapshot"), 0o705), []],
    ["the function's own folder at 0700", () => chmodSync(func(), 0o700), [MODES_CHECK]],
    [
      "a snapshot file mapped from the project (filePathMap) at 0600",
      () => {
        rmSync(func("snapshot/bodies.blocks"));
        const config = JSON.parse(readFileSync(func(".vc-config.json"), "utf8"));
        const filePathMap = { "snapshot/bodies.blocks": "snapshot/bodies.blocks" };
        writeFileSync(func(".vc-config.json"), JSON.stringify({ ...config, filePathMap }));
        chmodSync(path.join(root, "snapshot/bodies.blocks"), 0o600);
      },
      [MODES_CHECK],
    ],
  ])("%s", (_what, changeIt, expected) => {
    changeIt();
    expect(failing()).toEqual(expected);
  });

  test("the modes check names each file and folder others cannot read, with its mode", () => {
    chmodSync(func(GATEWAY_SECRET_FILE), 0o600);
    chmodSync(middleware("generated"), 0o700);
    const check = run().checks.find((c) => c.name === MODES_CHECK);
    expect(check?.detail).toBe(`${FUNCTION_DIR}/${GATEWAY_SECRET_FILE} 600, ${MIDDLEWARE_DIR}/generated 700`);
  });

  test("a link inside the function to a file inside it passes every check", () => {
    writeFiles(func("node_modules/pino"), { "cli.js": "" });
    mkdirSync(func("node_modules/.bin"), { recursive: true });
    symlinkSync("../pino/cli.js", func("node_modules/.bin/pino"));
    expect(failing()).toEqual([]);
  });

  test("the links check names each link that leaves its piece, and where it leads", () => {
    linkInstalledPackage(func, (installed) => installed);
    const check = run().checks.find((c) => c.name === LINKS_CHECK);
    expect(check?.detail).toBe(
      `${FUNCTION_DIR}/node_modules/pino → ${path.join(root, "installed/pino")} (outside it); deployed as they ` +
        "are, dangling: install the packages with npm ci, not as links to them",
    );
  });

  test("a bundle over the limit names its largest parts, packages by name", () => {
    writeSparse(func("node_modules/@scope/huge/lib.node"), FUNCTION_SIZE_LIMIT - 3_000_000);
    writeSparse(func("node_modules/@scope/huge/node_modules/dep/dep.node"), 2_000_000);
    writeSparse(func("node_modules/small/small.node"), 1_000_000);
    writeSparse(func("snapshot/extra.blocks"), 1_500_000);
    const check = run().checks.find((c) => c.name === SIZE_CHECK);
    expect(check).toEqual({
      name: SIZE_CHECK,
      ok: false,
      detail: "263.6 MB; the largest: node_modules/@scope/huge 261.1 MB, snapshot 1.5 MB, node_modules/small 1.0 MB",
    });
  });

  test("a missing function is reported, not thrown", () => {
    rmSync(func(), { recursive: true });
    expect(failing()).toEqual(["the function api/v1 is built"]);
  });
});

describe("routeOf follows config.json's routes after the filesystem phase", () => {
  test.each([
    ["/v1/showtimes", "/api/v1"],
    ["/v1/cinemas/a%2Fb", "/api/v1"],
    ["/v1", "/api/v1"],
    ["/api/v1/showtimes", "status 404"],
    ["/v2/showtimes", undefined],
  ])("%s → %s", (pathname, dest) => {
    expect(routeOf(GOOD_ROUTES, pathname)).toBe(dest);
  });
});
