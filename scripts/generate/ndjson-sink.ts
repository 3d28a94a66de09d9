import { once } from "node:events";
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { finished } from "node:stream/promises";

const CHUNK_CHARS = 1 << 20;

/** Writes lines to dir/part-0001.ndjson, part-0002.ndjson... in ~1 MB chunks, honouring backpressure. */
export interface NdjsonSink {
  writeLines(lines: readonly string[]): Promise<void>;
  /** Flushes and closes; returns how many files were written. */
  close(): Promise<number>;
}

/** Creates a sink that starts a new part file every `linesPerFile` lines and opens nothing until the first line. */
export function createNdjsonSink(dir: string, linesPerFile: number): NdjsonSink {
  let stream: WriteStream | undefined;
  let parts = 0;
  let linesInPart = 0;
  let chunk: string[] = [];
  let chunkChars = 0;
  // Without a listener a failed open or write would crash the process instead of rejecting.
  let failure: Error | undefined;

  const flush = async () => {
    if (failure) throw failure;
    if (!stream || chunk.length === 0) return;
    const ok = stream.write(chunk.join(""));
    chunk = [];
    chunkChars = 0;
    if (!ok) await once(stream, "drain");
  };
  const endPart = async () => {
    if (!stream) return;
    await flush();
    stream.end();
    await finished(stream);
    stream = undefined;
  };
  const startPart = () => {
    mkdirSync(dir, { recursive: true });
    stream = createWriteStream(join(dir, `part-${String(++parts).padStart(4, "0")}.ndjson`));
    stream.on("error", (error) => (failure ??= error));
    linesInPart = 0;
  };

  return {
    async writeLines(lines) {
      for (const line of lines) {
        if (linesInPart === linesPerFile) await endPart();
        if (!stream) startPart();
        chunk.push(line, "\n");
        chunkChars += line.length + 1;
        linesInPart++;
        if (chunkChars >= CHUNK_CHARS) await flush();
      }
    },
    async close() {
      await endPart();
      return parts;
    },
  };
}
