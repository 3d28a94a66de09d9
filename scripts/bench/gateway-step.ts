/**
 * The gateway middleware's CPU per request (it runs on every request, cache hits included), in
 * process: each call timed with process.cpuUsage (user + system, µs), so the figure is the
 * middleware's own work with no load generator in it. Beside it, a bare middleware that answers
 * the same rewrite without checking anything: the floor of building a Response at all.
 */
import { createHash } from "node:crypto";
import { rewrite } from "@vercel/functions";
import { destination } from "pino";
import { createGateway, type Gateway, type GatewayOptions } from "../../api/_adapters/gateway.js";
import { staticAccess } from "../../api/_core/gate/access.js";
import { memoryRateLimiter } from "../../api/_core/gate/rate-limit.js";
import { createOperationLog } from "../../api/_core/log/request-log.js";

export interface GatewayFigure {
  case: string;
  p50Us: number;
  p99Us: number;
  ceilingP99Us: number;
}

const KEY = "cl_bench_gateway_key";
const LAPSED = "cl_bench_gateway_lapsed";
const WARMUP = 5_000;
const ROUNDS = 50_000;

function accessText(): string {
  const hash = (key: string) => createHash("sha256").update(key).digest("hex");
  return JSON.stringify({
    organizations: [
      {
        id: "org",
        entitlements: [{ plan: "paid", status: "active" }],
        rateLimit: { requests: 1e9, windowSeconds: 60 },
      },
      { id: "lapsed", entitlements: [{ plan: "paid", status: "cancelled" }] },
    ],
    keys: [
      { id: "k", organization: "org", sha256: hash(KEY), revoked: false },
      { id: "l", organization: "lapsed", sha256: hash(LAPSED), revoked: false },
    ],
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** CPU µs of each call, sorted; the request is made anew each time, as the platform would. */
async function timeCalls(handler: Gateway, makeRequest: () => Request): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const request = makeRequest();
    const before = process.cpuUsage();
    await handler(request);
    const used = process.cpuUsage(before);
    if (i >= WARMUP) samples.push(used.user + used.system);
  }
  return samples.sort((a, b) => a - b);
}

/** A gateway as deployed; with `onLog`, it writes its request lines (LOG_LEVEL info, the default). */
function benchGateway(onLog?: GatewayOptions["onLog"]): Gateway {
  return createGateway({
    mode: "rewrite",
    secret: "bench-secret-of-at-least-32-characters",
    snapshotId: () => "0".repeat(32),
    access: staticAccess(accessText()),
    limiter: memoryRateLimiter(),
    now: () => new Date(),
    onLog,
  });
}

export async function measureGateway(): Promise<GatewayFigure[]> {
  const gateway = benchGateway();
  // The deployed default: pino lines written synchronously (here to /dev/null: the work, not the pipe).
  const log = await createOperationLog({ level: "info", destination: destination({ dest: "/dev/null", sync: true }) });
  const logging = benchGateway(log.request);
  const bare: Gateway = (request) =>
    rewrite(new URL(`/_c/${"0".repeat(32)}${new URL(request.url).pathname}`, request.url));
  const admitted = { authorization: `Bearer ${KEY}`, "accept-encoding": "gzip" };
  const cases: Array<[string, Gateway, Record<string, string>]> = [
    ["admitted (rewrite)", gateway, admitted],
    ["admitted, logged", logging, admitted],
    ["401 unknown key", gateway, { authorization: "Bearer cl_unknown" }],
    ["403 lapsed", gateway, { authorization: `Bearer ${LAPSED}` }],
  ];
  const figures: GatewayFigure[] = [];
  const ceiling = await timeCalls(bare, () => new Request("https://api.example/v1/showtimes?cinemaId=c1&limit=25"));
  for (const [name, handler, headers] of cases) {
    const samples = await timeCalls(
      handler,
      () => new Request("https://api.example/v1/showtimes?cinemaId=c1&limit=25", { headers }),
    );
    figures.push({
      case: name,
      p50Us: percentile(samples, 50),
      p99Us: percentile(samples, 99),
      ceilingP99Us: percentile(ceiling, 99),
    });
  }
  return figures;
}

export function formatGateway(figures: GatewayFigure[]): string {
  const lines = figures.map((f) => {
    const percentiles = `p50 ${String(f.p50Us).padStart(4)} µs  p99 ${String(f.p99Us).padStart(4)} µs`;
    const target = `${f.p99Us <= 500 ? "✓" : "✗"} ≤ 500 µs`;
    return `  ${f.case.padEnd(20)} ${percentiles}  (bare rewrite p99 ${f.ceilingP99Us} µs) ${target}`;
  });
  const heading = `gateway middleware, CPU per request (in process, ${ROUNDS.toLocaleString("en-US")} calls each):`;
  return `${heading}\n${lines.join("\n")}`;
}
