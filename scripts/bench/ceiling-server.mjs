// The ceiling: a bare node:http server answering from memory with the same responses (status,
// headers, body) our server gave, with no checks and no work.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const responses = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], "utf8"))).map(([path, r]) => [
    path,
    {
      status: r.status,
      headers: r.headers ?? { "content-type": "application/json; charset=utf-8" },
      body: Buffer.from(r.body, "base64"),
    },
  ]),
);
const missing = { status: 404, headers: {}, body: Buffer.from("{}") };
const server = createServer((req, res) => {
  const hit = responses.get(req.url) ?? missing;
  res.writeHead(hit.status, { ...hit.headers, "content-length": hit.body.length });
  res.end(hit.body);
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
