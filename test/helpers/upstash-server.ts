/**
 * An in-memory server speaking the part of Upstash Redis's REST API the rate limiter uses, for
 * tests: POST `/` (one command), `/pipeline` and `/multi-exec` (a list), with a bearer token;
 * SET (NX, PX), INCR, GET, PTTL, DEL, PING; expiry on a clock the test moves; string results in
 * base64 when the client asks for it (`Upstash-Encoding: base64`, as @upstash/redis does).
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type UpstashMode = "up" | "down" | "silent";

export interface UpstashServer {
  url: string;
  token: string;
  /** Milliseconds on the server's clock; move it to expire counters. */
  clock: { now: number };
  values: Map<string, { value: string; expiresAt?: number }>;
  /** up: answers; down: 503 to everything; silent: holds every request without answering. */
  setMode(mode: UpstashMode): void;
  /** Requests held in silent mode whose client has not gone away. */
  held(): number;
  close(): Promise<void>;
}

type Result = { result: unknown } | { error: string };

export function startUpstashServer(token = "upstash-test-token"): Promise<UpstashServer> {
  const clock = { now: 0 };
  const values = new Map<string, { value: string; expiresAt?: number }>();
  let mode: UpstashMode = "up";
  const held: ServerResponse[] = [];

  function live(key: string) {
    const entry = values.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= clock.now) values.delete(key);
    return values.get(key);
  }

  function run([name, ...args]: string[]): Result {
    const key = args[0]!;
    switch (name!.toUpperCase()) {
      case "PING":
        return { result: "PONG" };
      case "GET":
        return { result: live(key)?.value ?? null };
      case "DEL":
        return { result: values.delete(key) ? 1 : 0 };
      case "PTTL": {
        const entry = live(key);
        return { result: !entry ? -2 : entry.expiresAt === undefined ? -1 : entry.expiresAt - clock.now };
      }
      case "INCR": {
        const entry = live(key);
        const next = Number(entry?.value ?? 0) + 1;
        values.set(key, { value: String(next), expiresAt: entry?.expiresAt });
        return { result: next };
      }
      case "SET": {
        const options = args.slice(2).map((a) => a.toUpperCase());
        if (options.includes("NX") && live(key)) return { result: null };
        const px = options.indexOf("PX");
        const expiresAt = px === -1 ? undefined : clock.now + Number(args[2 + px + 1]);
        values.set(key, { value: String(args[1]), expiresAt });
        return { result: "OK" };
      }
      default:
        return { error: `ERR unknown command '${name}'` };
    }
  }

  const encode = (result: Result, base64: boolean): Result =>
    base64 && "result" in result && typeof result.result === "string" && result.result !== "OK"
      ? { result: Buffer.from(result.result).toString("base64") }
      : result;

  const server = createServer((req, res) => {
    if (mode === "silent") {
      held.push(res);
      res.on("close", () => {
        const at = held.indexOf(res);
        if (at !== -1) held.splice(at, 1);
      });
      return;
    }
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (mode === "down") return send(503, { error: "unavailable" });
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const base64 = req.headers["upstash-encoding"] === "base64";
      const body = JSON.parse(text) as string[] | string[][];
      if (req.url === "/pipeline" || req.url === "/multi-exec")
        return send(
          200,
          (body as string[][]).map((command) => encode(run(command.map(String)), base64)),
        );
      send(200, encode(run((body as string[]).map(String)), base64));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        token,
        clock,
        values,
        setMode: (next) => {
          mode = next;
          if (next !== "silent") for (const res of held.splice(0)) res.destroy();
        },
        held: () => held.length,
        close: () => {
          for (const res of held.splice(0)) res.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}
