/**
 * The local server's port, for `npm start` and `npm run serve`: why listening failed, in one line, and
 * a hold on the port while `npm start` builds (decision: stopping the local server).
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

/** Why a server could not listen, in one line; `choose` is how this command picks another port. */
export function listenFailure(error: unknown, port: number, host: string, choose: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return `port ${port} on ${host} is already in use (another server?): choose another with ${choose}`;
  if (code === "EACCES")
    return `port ${port} on ${host} needs privileges this user does not have: choose one above 1023`;
  return (error as Error).message;
}

export interface PortHold {
  /** The port held (the one the system chose when 0 was asked). */
  port: number;
  /** Lets go of the port, for the real server to listen on it. */
  release(): Promise<void>;
}

/**
 * Listens on the port without serving: a second `npm start` fails here, before it rebuilds the
 * snapshot a running server is reading. A connection arriving meanwhile is closed at once, as a
 * refused one would be.
 */
export function holdPort(port: number, host: string): Promise<PortHold> {
  const holder = createServer((socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    holder.once("error", reject);
    holder.listen(port, host, () =>
      resolve({
        port: (holder.address() as AddressInfo).port,
        release: () => new Promise<void>((done) => holder.close(() => done())),
      }),
    );
  });
}

/** A port number as PORT or --port gives it: 0 to 65535 in plain digits, else undefined. */
export function parsePort(text: string): number | undefined {
  return /^\d{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : undefined;
}
