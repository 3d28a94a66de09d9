/**
 * A request's body, read on demand and bounded (decision: MCP): each adapter hands the core a
 * reader, which only the MCP endpoint calls. Past the bound nothing more is kept: the reader stops
 * and answers undefined, so a client can never make a process hold more than the bound.
 */
import type { IncomingMessage } from "node:http";
import { ApiError } from "../_core/respond/errors.js";

export type BodyReader = (maxBytes: number) => Promise<Buffer | undefined>;

/** The 400 for a body that stopped arriving before its end (the client went away, or lied in Content-Length). */
function cutShort(): ApiError {
  return new ApiError(400, "bad_request", "The request body ended before it was complete; send it whole.");
}

/** Whether a Content-Length already announces more than the bound (then nothing is read at all). */
function announcedTooLarge(contentLength: string | null | undefined, maxBytes: number): boolean {
  return contentLength != null && Number(contentLength) > maxBytes;
}

/**
 * The reader of a Node request. Only `data` and `end` are listened to: Vercel's Node runtime, which
 * reads the body first for its request helpers, hands it on through those two events alone.
 */
export function nodeBodyReader(req: IncomingMessage): BodyReader {
  return (maxBytes) =>
    new Promise((resolve, reject) => {
      if (announcedTooLarge(req.headers["content-length"], maxBytes)) return resolve(undefined);
      const chunks: Buffer[] = [];
      let received = 0;
      const finish = (settle: () => void) => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("close", onClose);
        settle();
      };
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        // Past the bound: stop listening; Node discards the rest once the answer is sent.
        if (received > maxBytes) finish(() => resolve(undefined));
        else chunks.push(chunk);
      };
      const onEnd = () => finish(() => resolve(Buffer.concat(chunks, received)));
      const onClose = () => finish(() => reject(cutShort()));
      req.on("data", onData);
      req.on("end", onEnd);
      req.on("close", onClose);
    });
}
