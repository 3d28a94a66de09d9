// A stand-in for Vercel's Node.js runtime, run by scripts/vercel/launcher.ts inside a built
// function's folder (its working directory, like /var/task on Vercel). Plain JavaScript on
// purpose: no TypeScript loader may help the bundle resolve what Vercel would not.
// Like @vercel/node's serverless handler: import the handler named by .vc-config.json, unwrap
// `default` (up to five times), then serve each request by calling it with Node's req and res,
// after the request helpers (req.query, req.cookies, req.body, res.status, res.json, res.send). As
// there, the helpers read a body sent with a Content-Type first and hand it on through `data` and
// `end` only (@vercel/node's restoreBody): a handler reading it any other way would hang.
// A handler built with `useWebApi` (the Node.js Routing Middleware) is called with a web Request
// and answers a web Response, as Vercel's launcher does for it.
// Given the output's config.json (argv[2]), it also plays the platform's router: a rewrite keeps
// the path the client asked for but adds its destination's query (e.g. a named `:path*` turns
// into `?path=…`), which is what the function then sees.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";

const config = JSON.parse(readFileSync(".vc-config.json", "utf8"));
let listener = await import(pathToFileURL(path.resolve(config.handler)).href);
for (let i = 0; i < 5 && listener.default; i++) listener = listener.default;
if (typeof listener !== "function") throw new Error(`${config.handler} exports no request handler`);

const routes = process.argv[2] ? (JSON.parse(readFileSync(process.argv[2], "utf8")).routes ?? []) : [];
const afterFilesystem = routes.slice(routes.findIndex((route) => route.handle === "filesystem") + 1);

function rewrite(url) {
  const [pathname, search] = url.split(/\?(.*)/s);
  for (const route of afterFilesystem) {
    if (route.handle) break;
    const match = route.src && new RegExp(route.src).exec(pathname);
    if (!match) continue;
    const added = (route.dest ?? "").split("?")[1];
    if (!added) return url;
    const query = added.replace(/\$(\d+)/g, (_, i) => match[Number(i)] ?? "");
    return `${pathname}?${search ? `${search}&` : ""}${query}`;
  }
  return url;
}

/** The whole body of a request. */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** @vercel/node's restoreBody: the body read, replayed to `data` and `end` listeners alone. */
function restoreBody(req, body) {
  const replica = new PassThrough();
  const on = replica.on.bind(replica);
  const originalOn = req.on.bind(req);
  req.read = replica.read.bind(replica);
  req.on = req.addListener = (name, cb) => (name === "data" || name === "end" ? on(name, cb) : originalOn(name, cb));
  replica.write(body);
  replica.end();
}

async function addHelpers(req, res) {
  const url = new URL(req.url ?? "/", "http://localhost");
  let query;
  Object.defineProperty(req, "query", {
    get: () => (query ??= Object.fromEntries(url.searchParams)),
    configurable: true,
  });
  Object.defineProperty(req, "cookies", { get: () => ({}), configurable: true });
  if (req.headers["content-type"] !== undefined) {
    const body = await readBody(req);
    restoreBody(req, body);
    Object.defineProperty(req, "body", { get: () => body, configurable: true });
  }
  res.status = (code) => ((res.statusCode = code), res);
  res.send = (body) => (res.end(body), res);
  res.json = (value) => (
    res.setHeader("content-type", "application/json; charset=utf-8"), res.end(JSON.stringify(value)), res
  );
}

async function callWebHandler(req, res) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  // Built as Vercel's launcher builds it (@vercel/node, bundling-handler.js): X-Forwarded-Host before
  // Host, and an absolute-form target keeps its own authority. A client may name all three.
  const host = req.headers["x-forwarded-host"] ?? req.headers.host ?? "localhost";
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req);
  const request = new Request(new URL(req.url ?? "/", `${req.headers["x-forwarded-proto"]}://${host}`), {
    method: req.method,
    headers,
    body: body?.length ? body : undefined,
  });
  const response = await listener(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

const server = createServer(async (req, res) => {
  // The platform's proxy adds these before the function sees the request.
  req.headers["x-forwarded-proto"] ??= "https";
  req.headers["x-vercel-id"] ??= `local::${Date.now().toString(36)}`;
  req.url = rewrite(req.url ?? "/");
  try {
    if (config.shouldAddHelpers) await addHelpers(req, res);
    if (config.useWebApi) await callWebHandler(req, res);
    else await listener(req, res);
  } catch (error) {
    // Vercel answers an uncaught function error with a bare 500 (FUNCTION_INVOCATION_FAILED).
    process.stderr.write(`function crashed: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("FUNCTION_INVOCATION_FAILED");
  }
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
