/**
 * The check that the gateway's internal request goes to its fixed origin (decision: gateway
 * origin), run by `npm run verify:vercel` on the fetch-mode deployment: requests whose Host,
 * X-Forwarded-Host or absolute-form target name another listener are served as usual, and that
 * listener, a real socket, receives nothing (before, it received the request and the secret).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { GATEWAY_TOKEN_HEADER } from "../../api/_core/gate/internal-path.js";
import { assert, type Check, expectDocumented, send } from "./http-checks.js";

/**
 * A listener on a free loopback port that counts every connection (a TLS handshake it cannot read
 * counts too) and records every request it can, answering each an empty 200.
 */
export interface Bystander {
  authority: string;
  connections(): number;
  received: IncomingMessage[];
  close(): Promise<void>;
}

export function startBystander(): Promise<Bystander> {
  const received: IncomingMessage[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    received.push(req);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  server.on("connection", () => connections++);
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        authority: `127.0.0.1:${(server.address() as AddressInfo).port}`,
        connections: () => connections,
        received,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** How a client names another host: each is how Node's launcher may build the request's URL. */
const NAMINGS: Array<[how: string, path: (authority: string) => string, headers: (authority: string) => object]> = [
  ["Host", () => "/v1/films?limit=3", (authority) => ({ host: authority })],
  ["X-Forwarded-Host", () => "/v1/films?limit=3", (authority) => ({ "x-forwarded-host": authority })],
  ["an absolute-form target", (authority) => `http://${authority}/v1/films?limit=3`, () => ({})],
];

export const FIXED_ORIGIN_CHECK: Check = [
  "a Host, X-Forwarded-Host or absolute-form target naming another listener: served as usual, nothing reaches it",
  async (ctx) => {
    const bystander = await startBystander();
    try {
      const answers = [];
      for (const [how, path, headers] of NAMINGS) {
        const sent = { key: ctx.keys.valid, headers: headers(bystander.authority) as Record<string, string> };
        answers.push([how, await send(ctx.baseUrl, path(bystander.authority), sent)] as const);
      }
      const withSecret = bystander.received.filter((req) => req.headers[GATEWAY_TOKEN_HEADER] !== undefined);
      assert(
        bystander.connections() === 0,
        `the listener a client named had ${bystander.connections()} connections, ` +
          `${withSecret.length} requests with the gateway secret`,
      );
      for (const [how, answer] of answers) {
        assert(answer.status === 200, `${how}: expected 200, got ${answer.status}`);
        expectDocumented(ctx, answer, "listFilms", 200);
      }
      return `${NAMINGS.length} requests served, none reached ${bystander.authority}`;
    } finally {
      await bystander.close();
    }
  },
];
