/**
 * JSON from a client that is not trusted to be kind: checked before `JSON.parse` sees it.
 *
 * `JSON.parse` of a 4 MiB body nested `[[[…]]]` a million deep runs on the main thread for
 * hundreds of ms and allocates hundreds of MB; four at once stalled every other client for
 * seconds. A byte scan that counts nesting (skipping strings) costs a few ms per MiB and
 * refuses such a document before anything is built. Invalid UTF-8 is refused too, instead of
 * being decoded to U+FFFD and run as if the client had meant it.
 *
 * Every transport decodes what a client sends through `decodeUntrustedJson`, so the rule is
 * one rule: -32700 for bytes that are not UTF-8 or not JSON, -32600 for JSON nested too deep.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports nothing.
 */

/**
 * Deepest nesting of arrays and objects accepted, in levels. No tool argument needs more than
 * a handful (a skeleton edit is the deepest, at 5); 64 leaves room for any honest client.
 */
export const MAX_JSON_DEPTH = 64;

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;

export type DecodedJson =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'utf8' | 'syntax' | 'depth'; code: number; message: string };

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * True when `bytes` nests arrays or objects deeper than `maxDepth` (strings are skipped, with
 * their escapes). Malformed JSON is not judged here: JSON.parse says so afterwards.
 */
export function nestsDeeperThan(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

/** Decodes one untrusted JSON document: UTF-8 checked, nesting bounded, then parsed. */
export function decodeUntrustedJson(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): DecodedJson {
  // Nesting first: the scan stops at the first level too many, so a deep document costs what
  // its first bytes cost, not a UTF-8 pass over all of it (4 MiB: 3-5 ms of main thread apiece,
  // which 32 at once made a stall for every other client on a busy machine).
  if (nestsDeeperThan(bytes, maxDepth)) {
    return { ok: false, reason: 'depth', code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: JSON nested deeper than ${maxDepth} levels is refused` };
  }
  let text: string;
  try {
    text = fatalDecoder.decode(bytes);
  } catch {
    return { ok: false, reason: 'utf8', code: JSONRPC_PARSE_ERROR, message: 'Parse error: the message is not valid UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, reason: 'syntax', code: JSONRPC_PARSE_ERROR, message: `Parse error: ${(err as Error).message}` };
  }
}
