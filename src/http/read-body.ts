/**
 * Reads a request body up to a bound; a larger one is refused with 413 before it is parsed.
 * A body that declares its length is read into one buffer of that size, so a 4 MiB body costs
 * 4 MiB while it is read, not its chunks and a copy of them (32 such bodies at once were half
 * of the owner's RSS).
 */
import type { IncomingMessage } from 'node:http';

/** Largest request body accepted, in bytes (the SDK transport's own default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const header = req.headers['content-length'];
    const declared = header === undefined ? null : Number(header);
    if (declared !== null && declared > max) return reject(new BodyTooLargeError());
    const sized = declared !== null && Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > (sized?.length ?? max)) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      if (sized) chunk.copy(sized, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    req.once('end', () => resolve(sized ? sized.subarray(0, size) : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
