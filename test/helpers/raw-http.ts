/** Raw HTTP/1.1 over a socket: requests Node's own client would refuse to send, read as bytes. */
import { connect } from "node:net";
import { scaled } from "./deadlines.js";

export interface RawResponse {
  status: number;
  /** Lowercase names; a repeated field keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Splits the first response out of the bytes a server sent before closing. */
export function parseRawResponse(bytes: Buffer): RawResponse | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine!);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? 0);
  return { status: Number(status[1]), headers, body: bytes.subarray(end + 4, end + 4 + length) };
}

/** Writes `request` and resolves with everything the server sent once it closes (or `waitMs`, scaled, passes). */
export function rawExchange(url: string, request: Buffer | string, waitMs = scaled(5000)): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(done, waitMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", done);
    socket.on("error", done);
    socket.write(request);
  });
}
