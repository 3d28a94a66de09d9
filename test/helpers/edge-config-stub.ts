/**
 * A stand-in for Vercel Edge Config on loopback, for tests: the read API the SDK uses
 * (`GET /<id>/item/<key>`, `GET /<id>/items`, with the store's read token) under a custom
 * connection string, and the REST API `npm run keys -- --push` and `pull` use, with an API token:
 * `PATCH /v1/edge-config/<id>/items` and `GET /v1/edge-config/<id>/item/<key>` (the item with its
 * metadata, 404 when there is none; objects' members in name order, as a store may keep JSON, so the
 * CLI has to compare data rather than text). Items live in memory.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface EdgeConfigStub {
  /** The connection string a deployment would have in EDGE_CONFIG. */
  connectionString: string;
  /** What `keys --push` needs in its environment. */
  pushEnvironment: Record<string, string>;
  items: Map<string, unknown>;
  reads(): number;
  /** While down, every request (or every write, with "writes") fails with a 503. */
  setDown(down: boolean, which?: "all" | "writes"): void;
  /** Every read answers this many milliseconds late (0: at once); writes are not delayed. */
  setReadDelay(ms: number): void;
  close(): Promise<void>;
}

const ID = "ecfg_stub1";
const READ_TOKEN = "read-token";
const API_TOKEN = "api-token";

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => resolve(text));
  });
}

function membersInNameOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(membersInNameOrder);
  if (value === null || typeof value !== "object") return value;
  const names = Object.keys(value).sort();
  return Object.fromEntries(names.map((name) => [name, membersInNameOrder((value as Record<string, unknown>)[name])]));
}

export function startEdgeConfigStub(): Promise<EdgeConfigStub> {
  const items = new Map<string, unknown>();
  let reads = 0;
  let down: false | "all" | "writes" = false;
  let readDelay = 0;
  const server = createServer(async (req, res) => {
    if (req.method === "GET" && readDelay > 0) await new Promise((resolve) => setTimeout(resolve, readDelay).unref());
    const url = new URL(req.url ?? "/", "http://stub");
    const auth = req.headers.authorization;
    if (down === "all" || (down === "writes" && req.method === "PATCH"))
      return json(res, 503, { error: { message: "unavailable" } });
    const itemPath = `/v1/edge-config/${ID}/item/`;
    if (req.method === "GET" && url.pathname.startsWith(itemPath)) {
      if (auth !== `Bearer ${API_TOKEN}`) return json(res, 403, { error: { message: "Not authorized" } });
      const key = decodeURIComponent(url.pathname.slice(itemPath.length));
      if (!items.has(key)) return json(res, 404, { error: { code: "not_found", message: "item not found" } });
      return json(res, 200, {
        key,
        value: membersInNameOrder(items.get(key)),
        edgeConfigId: ID,
        createdAt: 0,
        updatedAt: 0,
      });
    }
    if (req.method === "PATCH" && url.pathname === `/v1/edge-config/${ID}/items`) {
      if (auth !== `Bearer ${API_TOKEN}`) return json(res, 403, { error: { message: "Not authorized" } });
      const { items: changes } = JSON.parse(await bodyOf(req)) as {
        items: { operation: string; key: string; value?: unknown }[];
      };
      for (const change of changes) {
        if (change.operation === "delete") items.delete(change.key);
        else items.set(change.key, change.value);
      }
      return json(res, 200, { status: "ok" });
    }
    if (req.method === "GET" && url.pathname.startsWith(`/${ID}/`)) {
      if (auth !== `Bearer ${READ_TOKEN}`) return json(res, 401, { error: { message: "Unauthorized" } });
      reads++;
      const digest = { "x-edge-config-digest": String(items.size) };
      if (url.pathname === `/${ID}/items`) return json(res, 200, Object.fromEntries(items), digest);
      const key = decodeURIComponent(url.pathname.slice(`/${ID}/item/`.length));
      if (!items.has(key)) return json(res, 404, { error: { message: "not found" } }, digest);
      return json(res, 200, items.get(key), digest);
    }
    json(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        connectionString: `${origin}/${ID}?token=${READ_TOKEN}`,
        pushEnvironment: {
          EDGE_CONFIG: `${origin}/${ID}?token=${READ_TOKEN}`,
          VERCEL_API_TOKEN: API_TOKEN,
          VERCEL_API_URL: origin,
        },
        items,
        reads: () => reads,
        setDown: (value, which = "all") => {
          down = value && which;
        },
        setReadDelay: (ms) => {
          readDelay = ms;
        },
        // Reads still held back are cut off: their clients gave up on them long ago.
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
