/**
 * The one line framer: every newline-delimited JSON-RPC transport (stdio in-process, the
 * owner's socket, the `gardener mcp` proxy) cuts its bytes into messages here, so a client
 * gets the same answer for the same bytes whichever way it came in:
 *
 *   - a line that is not UTF-8 or not JSON        → -32700 Parse error, id null
 *   - JSON nested deeper than MAX_JSON_DEPTH        → -32600 Invalid Request, with the line's id
 *   - a line over MAX_LINE_BYTES                    → -32600 Invalid Request, with the line's id
 *     when it can be found as the line streams past (request-id.ts), else id null
 *   - a blank line                                  → nothing (not a message)
 *
 * An over-long line is never held whole: once it passes the bound what was held is dropped
 * and the rest is only scanned for its id, until its newline; the next line is read as usual.
 * A refused line never ends the connection or the session: the peer's next line is served.
 * What a message must look like beyond JSON (JSON-RPC's shape) is the transport's to judge.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports only its neighbours in wire/.
 */
import { decodeUntrustedJson, JSONRPC_INVALID_REQUEST } from './untrusted-json.js';
import { findRequestId, RequestIdScanner, type RequestId } from './request-id.js';

/**
 * Longest line read, in bytes, on every line transport (the HTTP body bound is the same 4 MiB).
 * No tool argument comes near it (a note is at most 16,000 characters, `scan` takes at most
 * 10,000 paths); up to this much is held while a line arrives.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export type Frame =
  /** A JSON document, and the bytes it came from (without the newline). */
  | { ok: true; value: unknown; bytes: Buffer }
  /** A refused line: the JSON-RPC error to answer it with. */
  | { ok: false; reason: 'utf8' | 'syntax' | 'depth' | 'values' | 'too-long'; id: RequestId | null; code: number; message: string };

export interface LineFramerOptions {
  /** Longest line accepted, in bytes. @default MAX_LINE_BYTES */
  maxLineBytes?: number;
}

/** The JSON-RPC error response that answers a refused frame. */
export function refusalOf(frame: Extract<Frame, { ok: false }>): { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string } } {
  return { jsonrpc: '2.0', id: frame.id, error: { code: frame.code, message: frame.message } };
}

export class LineFramer {
  readonly maxLineBytes: number;
  #onFrame: (frame: Frame) => void;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** Set while the rest of an over-long line streams past: it looks for the id. */
  #skipping: RequestIdScanner | null = null;

  constructor(onFrame: (frame: Frame) => void, options: LineFramerOptions = {}) {
    const max = options.maxLineBytes ?? MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`options.maxLineBytes must be a positive integer, got ${String(max)} (${typeof max})`);
    this.maxLineBytes = max;
    this.#onFrame = onFrame;
  }

  /** Bytes held for the line in progress (never more than `maxLineBytes`). */
  get heldBytes(): number {
    return this.#bytes;
  }

  /** Cuts `chunk` (with what came before it) into lines; each complete line becomes a frame. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.#take(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  #take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.#skipping) {
      if (!this.#skipping.done) this.#skipping.feed(part);
      return;
    }
    if (this.#bytes + part.length > this.maxLineBytes) {
      const scanner = new RequestIdScanner();
      for (const held of this.#chunks) if (!scanner.done) scanner.feed(held);
      if (!scanner.done) scanner.feed(part);
      this.#chunks = [];
      this.#bytes = 0;
      this.#skipping = scanner;
      return;
    }
    this.#chunks.push(part);
    this.#bytes += part.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      const id = this.#skipping.id;
      this.#skipping = null;
      return this.#onFrame({ ok: false, reason: 'too-long', id, code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: a line over ${this.maxLineBytes} bytes was skipped (the bound on one JSON-RPC message)` });
    }
    let bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#bytes = 0;
    if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, -1);
    if (isBlank(bytes)) return;
    const decoded = decodeUntrustedJson(bytes);
    if (decoded.ok) return this.#onFrame({ ok: true, value: decoded.value, bytes });
    const id = decoded.reason === 'depth' || decoded.reason === 'values' ? findRequestId(bytes) : null;
    this.#onFrame({ ok: false, reason: decoded.reason, id, code: decoded.code, message: decoded.message });
  }
}

function isBlank(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}
