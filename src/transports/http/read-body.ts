/**
 * Reads a request body up to a bound; a larger one is refused with 413 before it is parsed.
 *
 * The bound on one body is not a bound on the owner: a thousand connections sending 4 MiB each
 * would be 4 GB held at once. So bodies larger than SMALL_BODY_BYTES take their size from one
 * BodyBudget (MAX_BODY_BYTES_IN_FLIGHT for all clients together) before a byte is read; one
 * that does not fit waits, unread, and the kernel's socket buffers push back on its sender.
 * Small bodies (every honest tool call's arguments) never wait behind large ones. A client
 * that goes away while waiting gives its turn up.
 *
 * A body that declares its length is read into one buffer of that size, so a 4 MiB body costs
 * 4 MiB while it is read, not its chunks and a copy of them. A body whose first 256 KiB already
 * condemn it (JSON too deep or too wide there: the caller's `refuseByPrefix`) is read to its end
 * but not kept, and gives its room back at once.
 */
import type { IncomingMessage } from 'node:http';

/** Largest request body accepted, in bytes (the SDK transport's own default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Bodies up to this size are read at once, outside the budget, in bytes: tool arguments are this small. */
export const SMALL_BODY_BYTES = 64 * 1024;
/** Bytes of larger bodies read at once, all clients together: 16 bodies of the largest size. */
export const MAX_BODY_BYTES_IN_FLIGHT = 16 * MAX_BODY_BYTES;

/** A body past the bound; `unread` is what it declared when nothing of it was read (else null). */
export class BodyTooLargeError extends Error {
  constructor(readonly unread: number | null = null) {
    super('the request body is over the bound');
  }
}
/**
 * A body over the bound but not past this, in bytes, is still read to its end (and dropped)
 * before the 413, so its client reads the answer instead of a reset mid-upload; a larger one
 * ends the connection.
 */
export const MAX_BODY_DRAIN_BYTES = 2 * MAX_BODY_BYTES;
/** The client went away before its body was read. */
export class BodyAbandonedError extends Error {}

interface Waiter {
  bytes: number;
  grant: () => void;
}

/** Bytes of large bodies being read at once, shared by every route of one listener. */
export class BodyBudget {
  readonly bytes: number;
  #free: number;
  #waiting: Waiter[] = [];

  /** @param bytes the budget, in bytes. @default MAX_BODY_BYTES_IN_FLIGHT */
  constructor(bytes: number = MAX_BODY_BYTES_IN_FLIGHT) {
    if (!Number.isSafeInteger(bytes) || bytes < 1) throw new RangeError(`options.maxBodyBytesInFlight must be a positive integer, got ${String(bytes)} (${typeof bytes})`);
    this.bytes = bytes;
    this.#free = bytes;
  }

  /** Bytes reserved by bodies being read now. */
  get inFlight(): number {
    return this.bytes - this.#free;
  }

  /** Bodies waiting for room. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Reserves `bytes` (at most the whole budget, so any body fits once alone), at once when they
   * fit, else in turn. Resolves with the release (idempotent); `abandon` lets the caller give
   * its turn up while it waits.
   */
  reserve(bytes: number): { granted: Promise<() => void>; abandon: () => void } {
    const need = Math.min(bytes, this.bytes);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.#free += need;
      this.#grantWaiters();
    };
    if (this.#waiting.length === 0 && need <= this.#free) {
      this.#free -= need;
      return { granted: Promise.resolve(release), abandon: () => {} };
    }
    let waiter!: Waiter;
    const granted = new Promise<() => void>((resolve) => {
      waiter = { bytes: need, grant: () => resolve(release) };
    });
    this.#waiting.push(waiter);
    return {
      granted,
      abandon: () => {
        const i = this.#waiting.indexOf(waiter);
        if (i !== -1) this.#waiting.splice(i, 1);
        this.#grantWaiters();
      },
    };
  }

  /** In order, every waiter that fits now (a smaller one may pass a larger one that does not). */
  #grantWaiters(): void {
    for (let i = 0; i < this.#waiting.length; ) {
      const w = this.#waiting[i]!;
      if (w.bytes <= this.#free) {
        this.#free -= w.bytes;
        this.#waiting.splice(i, 1);
        w.grant();
      } else i++;
    }
  }
}

/**
 * How much of a large body is looked at before the rest is read, in bytes (see
 * `refuseByPrefix`): room for the values bound to be passed (100,000 values take 200 KB of
 * `1,`), and a scan of well under a millisecond.
 */
export const BODY_PREFIX_BYTES = 256 * 1024;

export interface ReadBodyOptions {
  /** @default MAX_BODY_BYTES */
  max?: number;
  /** Where bodies over SMALL_BODY_BYTES take their room; none: read at once. */
  budget?: BodyBudget;
  /**
   * Asked once, with the first BODY_PREFIX_BYTES of a body that is longer: true when that
   * prefix alone condemns the body (JSON too deep or too wide already there). The rest is then read
   * and dropped, its room given back at once, and the body read is that prefix alone. Shorter
   * bodies are judged whole by whoever decodes them.
   */
  refuseByPrefix?: (prefix: Uint8Array) => boolean;
}

export interface ReadBody {
  /** The body; when `refuseByPrefix` condemned it, only that prefix (decoding it says why). */
  body: Buffer;
  /** Gives back the body's room; call once the bytes are no longer needed. Idempotent. */
  release: () => void;
}

/**
 * Reads the body. Resolves once it is all in; rejects with BodyTooLargeError past `max`,
 * BodyAbandonedError when the client went away before it was all in.
 */
export async function readBody(req: IncomingMessage, options: ReadBodyOptions = {}): Promise<ReadBody> {
  const max = options.max ?? MAX_BODY_BYTES;
  const header = req.headers['content-length'];
  const declared = header === undefined ? null : Number(header);
  if (declared !== null && declared > max) throw new BodyTooLargeError(declared);
  const need = declared !== null && Number.isSafeInteger(declared) ? declared : max;
  let release = () => {};
  if (options.budget && need > SMALL_BODY_BYTES) {
    const { granted, abandon } = options.budget.reserve(need);
    const gone = new Promise<null>((resolve) => req.once('close', () => resolve(null)));
    const got = await Promise.race([granted, gone]);
    if (got === null) {
      abandon();
      // Granted at the same moment it went: give the room back.
      void granted.then((r) => r());
      throw new BodyAbandonedError();
    }
    release = got;
  }
  try {
    return { body: await readAll(req, declared, max, options.refuseByPrefix, () => release()), release };
  } catch (err) {
    release();
    throw err;
  }
}

function readAll(
  req: IncomingMessage,
  declared: number | null,
  max: number,
  refuseByPrefix: ((prefix: Uint8Array) => boolean) | undefined,
  releaseEarly: () => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // One buffer of the declared size, made once the prefix is judged: a condemned body never
    // costs more than its prefix.
    const sizedBytes = declared !== null && Number.isSafeInteger(declared) && declared > 0 ? declared : null;
    let sized: Buffer | null = null;
    let chunks: Buffer[] = [];
    let size = 0;
    let judged = refuseByPrefix === undefined;
    let condemned: Buffer | null = null;
    const judge = () => {
      judged = true;
      const prefix = Buffer.concat(chunks);
      if (!refuseByPrefix!(prefix)) return;
      condemned = prefix;
      chunks = [];
      releaseEarly();
    };
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > (sizedBytes ?? max)) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLargeError());
        return;
      }
      size += chunk.length;
      if (condemned) return;
      if (sized) chunk.copy(sized, size - chunk.length);
      else chunks.push(chunk);
      if (!judged && size >= BODY_PREFIX_BYTES) judge();
      if (judged && !condemned && !sized && sizedBytes !== null) {
        sized = Buffer.allocUnsafe(sizedBytes);
        let at = 0;
        for (const c of chunks) at += c.copy(sized, at);
        chunks = [];
      }
    });
    req.once('end', () => {
      resolve(condemned ?? (sized ? sized.subarray(0, size) : Buffer.concat(chunks)));
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new BodyAbandonedError());
    });
  });
}
