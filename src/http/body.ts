/**
 * Reading a raw request body with a size limit. Over the limit the body is refused with 413, but
 * the rest of the request is still drained (not destroyed), so that the 413 reaches the client on
 * an intact keep-alive connection: destroying the request mid-body (e.g. by leaving a
 * `for await` loop over it) resets the socket, and a client that reuses it fails.
 */
import type { IncomingMessage } from "node:http";
import { BadRequest, PayloadTooLarge } from "../errors.ts";

export function readBytes(req: IncomingMessage, max: number, tooLarge: () => PayloadTooLarge): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (declared > max) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise<Buffer>((resolve, reject) => {
    // A declared length: the chunks are copied into one buffer as they arrive (its memory is
    // committed page by page), not joined at the end — joining 200 MiB held the event loop for
    // ≈190 ms (copy and page faults, measured).
    const target = declared >= 0 && declared <= max ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      const at = size;
      size += chunk.length;
      if (size <= max && (!target || size <= target.length)) {
        if (target) chunk.copy(target, at);
        else chunks.push(chunk);
        return;
      }
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      req.resume();
      reject(tooLarge());
    };
    const onEnd = (): void => resolve(target ? target.subarray(0, size) : Buffer.concat(chunks));
    const onError = (err: Error): void => reject(new BadRequest(`could not read the request body: ${err.message}`));
    // A client that goes away mid-body: 'close' without 'end' (after 'end' this is a no-op).
    const onClose = (): void => reject(new BadRequest("the request body was cut short"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}
