// The ceiling: a bare node:http server answering from memory with the same responses (status,
// headers, body) our server gave, with no checks and no work. A POST (an MCP message) is answered
// by its path and body, read whole as any server must.
import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import { createInterface } from "node:readline";

// One JSON line per response (serve-step.ts): read a line at a time, as no one string holds them all at 2M.
const responses = new Map();
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  if (line === "") continue;
  const r = JSON.parse(line);
  responses.set(r.key, {
    status: r.status,
    headers: r.headers ?? { "content-type": "application/json; charset=utf-8" },
    body: Buffer.from(r.body, "base64"),
  });
}
const missing = { status: 404, headers: {}, body: Buffer.from("{}") };
function answer(res, key) {
  const hit = responses.get(key) ?? missing;
  res.writeHead(hit.status, { ...hit.headers, "content-length": hit.body.length });
  res.end(hit.body);
}

const server = createServer((req, res) => {
  if (req.method !== "POST") return answer(res, req.url);
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => answer(res, `POST ${req.url} ${Buffer.concat(chunks)}`));
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
