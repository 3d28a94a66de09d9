// Cold start of the Vercel function: import the bundled module, then serve one request through it.
const started = performance.now();
const { createServer } = await import("node:http");
const module = await import(process.argv[2]);
const imported = performance.now();
const server = createServer(module.default);
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const response = await fetch(`http://127.0.0.1:${server.address().port}${process.argv[3]}`, {
  headers: { authorization: `Bearer ${process.env.BENCH_KEY}` },
});
await response.arrayBuffer();
const firstResponse = performance.now();
console.log(
  JSON.stringify({ status: response.status, importMs: imported - started, firstResponseMs: firstResponse - started }),
);
server.close();
