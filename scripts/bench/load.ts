/** Load generation with autocannon: requests/s and latency percentiles for a rotating set of paths. */
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  connections?: number;
  seconds?: number;
}

/** Runs one load test; paths rotate so a single cached response does not flatter the server. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 5,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>) => {
          request.path = options.paths[next++ % options.paths.length];
          return request;
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
