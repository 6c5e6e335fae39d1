/**
 * The `id` of a JSON-RPC request found without parsing it: for a line refused before parsing
 * (over MAX_LINE_BYTES, nested too deep), so the refusal can carry the request's id and the
 * client's call fails at once instead of waiting forever for an answer.
 *
 * A byte scan that streams: it holds its state and at most MAX_ID_BYTES of the id's value,
 * never the line, so it can follow a 10 MB line as it goes past. It looks for a key `"id"`
 * directly in the top-level object (wherever it comes: the SDK client writes it after the
 * params) and keeps the first one; strings are skipped with their escapes, nested values by
 * depth. A key written with escapes (`"\u0069d"`), a top level that is not an object, or an id
 * that is not a string or a number gives null, as JSON-RPC says for an id that cannot be told;
 * so does an id that comes after nesting deeper than MAX_JSON_DEPTH (the scan stops there).
 * Inside strings it jumps with `indexOf`, so a 10 MB line costs about a millisecond.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports only untrusted-json.ts.
 */
import { MAX_JSON_DEPTH } from './untrusted-json.js';

/** Longest id value kept, in bytes; a longer one is no id anyone sends (null). */
export const MAX_ID_BYTES = 256;

export type RequestId = string | number;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export class RequestIdScanner {
  /** Nesting depth; the top-level object's members are at depth 1. */
  #depth = 0;
  #started = false;
  #inString = false;
  #escaped = false;
  /** At depth 1: the next string is a key. */
  #expectKey = false;
  /** The bytes of the key being read (only its first three matter: `id` or not). */
  #key: number[] = [];
  #keyIsId = false;
  /** After `"id":`, the value's bytes so far. */
  #value: number[] | null = null;
  #done = false;
  #id: RequestId | null = null;

  /** The id, once found; null until then (and for good, once `done` says the scan gave up). */
  get id(): RequestId | null {
    return this.#id;
  }

  /** True once scanning more bytes cannot change the answer. */
  get done(): boolean {
    return this.#done;
  }

  /** Feeds the next bytes of the line. */
  feed(bytes: Uint8Array): void {
    // Most of a long line is the inside of a string: jump from quote to backslash natively
    // (indexOf) instead of a byte at a time. The next of each is found at most once per byte.
    let nextQuote = -2;
    let nextBackslash = -2;
    for (let i = 0; i < bytes.length && !this.#done; i++) {
      if (this.#inString && !this.#escaped && this.#value === null && !(this.#depth === 1 && this.#expectKey)) {
        if (nextQuote !== -1 && nextQuote < i) nextQuote = bytes.indexOf(QUOTE, i);
        if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = bytes.indexOf(BACKSLASH, i);
        const stop = nextQuote === -1 ? nextBackslash : nextBackslash === -1 ? nextQuote : Math.min(nextQuote, nextBackslash);
        if (stop === -1) return;
        i = stop;
      }
      this.#byte(bytes[i]!);
    }
  }

  #byte(b: number): void {
    if (this.#value !== null) return this.#valueByte(b);
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (b === BACKSLASH) {
        this.#escaped = true;
        if (this.#depth === 1 && this.#key.length < 3) this.#key.push(b);
      } else if (b === QUOTE) {
        this.#inString = false;
        if (this.#depth === 1 && this.#expectKey) {
          this.#keyIsId = this.#key.length === 2 && this.#key[0] === 0x69 && this.#key[1] === 0x64;
          this.#expectKey = false;
        }
      } else if (this.#depth === 1 && this.#expectKey && this.#key.length < 3) this.#key.push(b);
      return;
    }
    if (!this.#started) {
      if (isSpace(b)) return;
      this.#started = true;
      if (b !== OPEN_BRACE) {
        this.#done = true; // not an object: no id
        return;
      }
      this.#depth = 1;
      this.#expectKey = true;
      return;
    }
    if (b === QUOTE) {
      this.#inString = true;
      this.#key = [];
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      // Past the nesting bound the line is refused anyway: the id is no longer cheap to find.
      if (++this.#depth > MAX_JSON_DEPTH) this.#done = true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      if (--this.#depth === 0) this.#done = true;
    } else if (this.#depth === 1) {
      if (b === COMMA) {
        this.#expectKey = true;
        this.#keyIsId = false;
      } else if (b === COLON && this.#keyIsId) this.#value = [];
    }
  }

  /** A byte of the id's value: kept until the value ends at depth 1, then judged. */
  #valueByte(b: number): void {
    const value = this.#value!;
    if (this.#inString) {
      value.push(b);
      if (this.#escaped) this.#escaped = false;
      else if (b === BACKSLASH) this.#escaped = true;
      else if (b === QUOTE) this.#inString = false;
    } else if (b === COMMA || b === CLOSE_BRACE) {
      this.#id = judge(value);
      this.#done = true;
      return;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      this.#done = true; // an object or array id: not an id
      return;
    } else {
      if (b === QUOTE) this.#inString = true;
      value.push(b);
    }
    if (value.length > MAX_ID_BYTES) this.#done = true;
  }
}

function judge(bytes: number[]): RequestId | null {
  try {
    const v: unknown = JSON.parse(utf8.decode(Uint8Array.from(bytes)));
    return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : null;
  } catch {
    return null;
  }
}

/** The top-level `id` of one whole line (see the file's header); null when it cannot be told. */
export function findRequestId(bytes: Uint8Array): RequestId | null {
  const scanner = new RequestIdScanner();
  scanner.feed(bytes);
  return scanner.id;
}
