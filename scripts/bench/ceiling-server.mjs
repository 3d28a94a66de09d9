// The ceiling: a bare node:http server answering from memory with the same bytes, no checks.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const responses = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], "utf8"))).map(([path, r]) => [
    path,
    { status: r.status, body: Buffer.from(r.body, "base64") },
  ]),
);
const missing = Buffer.from("{}");
const server = createServer((req, res) => {
  const hit = responses.get(req.url) ?? { status: 404, body: missing };
  res.writeHead(hit.status, { "content-type": "application/json; charset=utf-8", "content-length": hit.body.length });
  res.end(hit.body);
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
