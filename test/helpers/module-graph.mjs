// Which modules a request loads (decision: MCP: the MCP code adds nothing to the cold start of a
// request that does not use it). Imports a Node request listener (ENTRY: api/v1.ts through tsx, or
// a bundle of it), serves one GET of /v1 through it, then one MCP tools/call, and prints the
// module URLs resolved by then, each step's beside its status, as one JSON line.
//     node [--import tsx] module-graph.mjs ENTRY   (SNAPSHOT_DIR, ACCESS_JSON, KEY in the environment)
import { createServer } from "node:http";
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";

const { port1, port2 } = new MessageChannel();
const resolved = [];
let synced;
port1.on("message", (message) => {
  if (message.url) resolved.push(message.url);
  else synced?.();
});
register("./module-graph-hooks.mjs", { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

/** Every URL resolved so far (the hooks thread answers a sync after the URLs it posted before). */
function modulesSoFar() {
  return new Promise((resolve) => {
    synced = () => resolve([...resolved]);
    port1.postMessage("sync");
  });
}

const listener = (await import(pathToFileURL(process.argv[2]).href)).default;
const server = createServer(listener);
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const authorization = `Bearer ${process.env.KEY}`;

const steps = { imported: { modules: await modulesSoFar() } };
const films = await fetch(`${base}/v1/films?limit=2`, { headers: { authorization } });
await films.arrayBuffer();
steps.v1 = { status: films.status, modules: await modulesSoFar() };
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "find_films", arguments: { limit: 2 } } };
const mcp = await fetch(`${base}/mcp`, {
  method: "POST",
  headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify(call),
});
await mcp.arrayBuffer();
steps.mcp = { status: mcp.status, modules: await modulesSoFar() };
process.stdout.write(`${JSON.stringify(steps)}\n`);
server.close();
process.exit(0);
