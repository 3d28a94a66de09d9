/** The bench's one key and the access data that lets it through (entitled, effectively unlimited). */
import { createHash } from "node:crypto";

export const BENCH_KEY = "cl_bench_0f1e2d3c4b5a69788796a5b4c3d2e1f0";

/** The access file's text: one organization, entitled, with a rate limit no bench reaches. */
export function benchAccessText(): string {
  const sha256 = createHash("sha256").update(BENCH_KEY).digest("hex");
  return JSON.stringify({
    organizations: [
      {
        id: "bench",
        entitlements: [{ plan: "paid", status: "active" }],
        rateLimit: { requests: 1e9, windowSeconds: 1 },
      },
    ],
    keys: [{ id: "bench-key", organization: "bench", sha256, revoked: false }],
  });
}
