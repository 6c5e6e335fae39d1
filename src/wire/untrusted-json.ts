/**
 * JSON from a client that is not trusted to be kind: checked before `JSON.parse` sees it.
 *
 * `JSON.parse` of a 4 MiB body nested `[[[…]]]` a million deep runs on the main thread for
 * hundreds of ms and allocates hundreds of MB; four at once stalled every other client for
 * seconds. A byte scan that counts nesting and values (skipping strings) costs a few ms per MiB
 * and refuses such a document before anything is built; a shallow one holding a million small
 * arrays costs as much to parse, so the count of values is bounded too. Invalid UTF-8 is
 * refused too, instead of being decoded to U+FFFD and run as if the client had meant it.
 *
 * Every transport decodes what a client sends through `decodeUntrustedJson`, so the rule is
 * one rule: -32700 for bytes that are not UTF-8 or not JSON, -32600 for JSON nested too deep
 * or holding too many values.
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
  | { ok: false; reason: 'utf8' | 'syntax' | 'depth' | 'values'; code: number; message: string };

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Most values accepted in one document: arrays, objects and the items and members inside them
 * (the scan counts commas and opening brackets outside strings, plus one). A shallow 4 MiB body
 * holding a million `[1]` costs `JSON.parse` 150-400 ms and 60 MB, as much as a deep one; 100,000
 * values parse in tens of ms, and no tool argument comes near (a `scan` of 10,000 paths is
 * 10,001).
 */
export const MAX_JSON_VALUES = 100_000;

/**
 * Which bound `bytes` passes first, scanning from the start (strings are skipped, with their
 * escapes): 'depth' past `maxDepth` levels of arrays and objects, 'values' past `maxValues`
 * values, else null. A prefix that passes a bound condemns the whole document. Malformed JSON
 * is not judged here: JSON.parse says so afterwards.
 */
export function exceededJsonBound(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH, maxValues: number = MAX_JSON_VALUES): 'depth' | 'values' | null {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (b === 0x5d || b === 0x7d) depth--;
    else if (b === 0x2c && ++values > maxValues) return 'values';
  }
  return null;
}

/** True when `bytes` nests arrays or objects deeper than `maxDepth` (see exceededJsonBound). */
export function nestsDeeperThan(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH): boolean {
  return exceededJsonBound(bytes, maxDepth, Infinity) === 'depth';
}

/** Decodes one untrusted JSON document: UTF-8 checked, nesting bounded, then parsed. */
export function decodeUntrustedJson(bytes: Uint8Array, maxDepth: number = MAX_JSON_DEPTH, maxValues: number = MAX_JSON_VALUES): DecodedJson {
  // The shape first: the scan stops at the first level or value too many, so such a document
  // costs what its first bytes cost, not a UTF-8 pass over all of it (4 MiB: 3-5 ms of main
  // thread apiece, which 32 at once made a stall for every other client on a busy machine).
  const exceeded = exceededJsonBound(bytes, maxDepth, maxValues);
  if (exceeded === 'depth') {
    return { ok: false, reason: 'depth', code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: JSON nested deeper than ${maxDepth} levels is refused` };
  }
  if (exceeded === 'values') {
    return { ok: false, reason: 'values', code: JSONRPC_INVALID_REQUEST, message: `Invalid Request: JSON with more than ${maxValues} values is refused` };
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
