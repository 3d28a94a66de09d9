/**
 * An in-memory server speaking the part of Upstash Redis's REST API the rate limiter and usage use,
 * for tests: POST `/` (one command), `/pipeline` and `/multi-exec` (a list), with a bearer token;
 * SET (NX, PX), INCR, GET, PTTL, DEL, PING; SMEMBERS, HGETALL; EVAL of usage's batch script alone,
 * run as its Lua says (the script itself runs on a real redis-server in the contract test); expiry
 * on a clock the test moves; strings in base64 when the client asks for it (`Upstash-Encoding:
 * base64`, as @upstash/redis does), in lists too.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ADD_BATCH_SCRIPT } from "../../api/_adapters/usage-layout.js";

export type UpstashMode = "up" | "down" | "silent";

export interface UpstashServer {
  url: string;
  token: string;
  /** Milliseconds on the server's clock; move it to expire counters. */
  clock: { now: number };
  values: Map<string, { value: string; expiresAt?: number }>;
  /** Hashes and sets (usage's), which never expire here. */
  hashes: Map<string, Map<string, number>>;
  sets: Map<string, Set<string>>;
  /** Commands answered, by name (EVAL, PIPELINE…): how many round trips a client made. */
  commands: Map<string, number>;
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
  const hashes = new Map<string, Map<string, number>>();
  const sets = new Map<string, Set<string>>();
  const commands = new Map<string, number>();
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
      case "SMEMBERS":
        return { result: [...(sets.get(key) ?? [])] };
      case "HGETALL":
        return { result: [...(hashes.get(key) ?? [])].flatMap(([field, value]) => [field, String(value)]) };
      case "EVAL":
        return evalScript(args);
      default:
        return { error: `ERR unknown command '${name}'` };
    }
  }

  /** usage-layout.ts's ADD_BATCH_SCRIPT, step by step as its Lua goes (expiries aside). */
  function evalScript([script, keyCount, ...rest]: string[]): Result {
    if (script !== ADD_BATCH_SCRIPT) return { error: "ERR this stand-in runs usage's batch script only" };
    const keys = rest.slice(0, Number(keyCount));
    const argv = rest.slice(Number(keyCount));
    const recorded = run(["SET", keys[0]!, "1", "NX", "PX", String(Number(argv[0]) * 1000)]);
    if ("result" in recorded && recorded.result === null) return { result: 0 };
    let at = 3;
    for (let i = 1; i <= Number(argv[2]); i++) {
      const hash = hashes.get(keys[i]!) ?? new Map<string, number>();
      hashes.set(keys[i]!, hash);
      const days = keys[Number(argv[at]) - 1]!;
      sets.set(days, (sets.get(days) ?? new Set()).add(argv[at + 1]!));
      const fields = Number(argv[at + 2]);
      at += 3;
      for (let f = 0; f < fields; f++, at += 2) hash.set(argv[at]!, (hash.get(argv[at]!) ?? 0) + Number(argv[at + 1]));
    }
    return { result: 1 };
  }

  const encodeValue = (value: unknown): unknown =>
    typeof value === "string" && value !== "OK"
      ? Buffer.from(value).toString("base64")
      : Array.isArray(value)
        ? value.map(encodeValue)
        : value;
  const encode = (result: Result, base64: boolean): Result =>
    base64 && "result" in result ? { result: encodeValue(result.result) } : result;
  const counted = (name: string) => commands.set(name, (commands.get(name) ?? 0) + 1);

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
      counted(req.url === "/" ? String((body as string[])[0]).toUpperCase() : String(req.url).slice(1).toUpperCase());
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
        hashes,
        sets,
        commands,
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
