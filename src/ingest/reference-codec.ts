/**
 * How a file's references are stored: one text column on its row, grouped by name, so finding
 * the uses of a name in a file is one `indexOf` and never a JSON parse of the whole list.
 *
 *   \n<name>\t<use>,<use>…\n<name>\t…
 *   <use> = <kind letter><line>[:<index of the enclosing definition in the row's symbols>]
 *
 * The enclosing definition is stored as an index into the file's own definitions (the row
 * carries them already), which keeps a reference to about six bytes. The kind letters are
 * c call, t type, n new, i inherit, d decorator, m member, o other. Encoded on the pool thread,
 * like the definitions' JSON; decoded only for the files a query names.
 */
import type { Reference, ReferenceKind, SymbolDef } from './extract/types.js';
import { Buffer } from 'node:buffer';

const LETTER: Record<ReferenceKind, string> = { call: 'c', type: 't', new: 'n', inherit: 'i', decorator: 'd', member: 'm', other: 'o' };
const KIND: Record<string, ReferenceKind> = { c: 'call', t: 'type', n: 'new', i: 'inherit', d: 'decorator', m: 'member', o: 'other' };

/**
 * The buffer a file's encoding is written into: a file's
 * references leave this thread as one flat one-byte string, never as a tree of concatenations
 * (which lived until the structured clone flattened it, and cost the pool thread's GC more than
 * the scan that found them).
 */
/** The most a use can take: a letter, a line, a colon and an index (ten digits each). */
const USE_BYTES = 23;
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * The grouping's working arrays, kept from file to file and grown when a file needs more: a `Map`
 * of names per file (rehashed as it grew, thrown away after) was a tenth of what a pool thread
 * allocated in a drain (9 KB a file on the bench repository).
 */
let nextUse = new Int32Array(1024);
let withinAt = new Int32Array(1024);
let groupHeads = new Int32Array(1024);
let groupTails = new Int32Array(1024);
/** Open addressing by a hash of the name: each slot holds a group index + 1, 0 when empty. */
let slots = new Int32Array(2048);

/** The power of two at least twice `n`: the slots' load stays at most one half. */
function slotCount(n: number): number {
  let size = 16;
  while (size < 2 * n) size *= 2;
  return size;
}

/** FNV-1a over the name's UTF-16 units. */
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function encodeReferences(symbols: readonly SymbolDef[], references: readonly Reference[]): string {
  const n = references.length;
  if (n === 0) return '';
  if (nextUse.length < n) {
    nextUse = new Int32Array(n * 2);
    withinAt = new Int32Array(n * 2);
    groupHeads = new Int32Array(n * 2);
    groupTails = new Int32Array(n * 2);
  }
  const tableSize = slotCount(n);
  if (slots.length < tableSize) slots = new Int32Array(tableSize);
  slots.fill(0, 0, tableSize);
  const mask = tableSize - 1;
  const next = nextUse;
  const within = withinAt;
  const heads = groupHeads;
  const tails = groupTails;
  // Grouped by name in first-use order: each reference links to the next use of its name.
  let groups = 0;
  let index: Map<string, number[]> | undefined;
  // Uses in a row mostly share their caller: its index is looked up once while it stays unique.
  let lastIn: string | undefined;
  let lastAt = -1;
  let bytes = 1;
  for (let k = 0; k < n; k++) {
    const r = references[k]!;
    let at = -1;
    if (r.in !== undefined) {
      if (r.in === lastIn) at = lastAt;
      else {
        index ??= definitionIndex(symbols);
        const all = index.get(r.in);
        if (all !== undefined) at = all.length === 1 ? all[0]! : nearestBefore(symbols, all, r.line);
        lastIn = all !== undefined && all.length > 1 ? undefined : r.in;
        lastAt = at;
      }
    }
    within[k] = at;
    next[k] = -1;
    const name = r.name;
    let slot = hashName(name) & mask;
    let g = -1;
    for (let held = slots[slot]!; held !== 0; slot = (slot + 1) & mask, held = slots[slot]!) {
      if (references[heads[held - 1]!]!.name === name) {
        g = held - 1;
        break;
      }
    }
    if (g < 0) {
      slots[slot] = groups + 1;
      heads[groups] = k;
      tails[groups] = k;
      groups++;
      bytes += name.length + 2;
    } else {
      next[tails[g]!] = k;
      tails[g] = k;
    }
    bytes += USE_BYTES;
  }
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(bytes * 2);
  const b = scratch;
  let p = 0;
  for (let g = 0; g < groups; g++) {
    let k = heads[g]!;
    const name = references[k]!.name;
    b[p++] = 10;
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i);
      if (c > 127) return encodeWide(symbols, references);
      b[p++] = c;
    }
    b[p++] = 9;
    for (let first = true; k >= 0; k = next[k]!, first = false) {
      if (!first) b[p++] = 44;
      const r = references[k]!;
      b[p++] = r.kind.charCodeAt(0); // each kind's letter is its first
      p = writeDigits(b, p, r.line);
      if (within[k]! >= 0) {
        b[p++] = 58;
        p = writeDigits(b, p, within[k]!);
      }
    }
  }
  b[p++] = 10;
  return b.toString('latin1', 0, p);
}

/** `value`'s decimal digits at `p`; returns where they end. */
function writeDigits(b: Buffer, p: number, value: number): number {
  if (value < 10) {
    b[p] = 48 + value;
    return p + 1;
  }
  let len = 1;
  for (let x = value; x >= 10; x = (x / 10) | 0) len++;
  const end = p + len;
  for (let q = end - 1; q >= p; q--) {
    b[q] = 48 + (value % 10);
    value = (value / 10) | 0;
  }
  return end;
}

/** The same encoding for a file with a name outside ASCII (rare): parts joined, so still one flat string. */
function encodeWide(symbols: readonly SymbolDef[], references: readonly Reference[]): string {
  const byName = new Map<string, string[]>();
  let index: Map<string, number[]> | undefined;
  for (const r of references) {
    let use = LETTER[r.kind] + r.line;
    if (r.in !== undefined) {
      index ??= definitionIndex(symbols);
      const at = index.get(r.in);
      if (at !== undefined) use += ':' + (at.length === 1 ? at[0]! : nearestBefore(symbols, at, r.line));
    }
    const uses = byName.get(r.name);
    if (uses === undefined) byName.set(r.name, [use]);
    else uses.push(use);
  }
  const parts: string[] = [];
  for (const [name, uses] of byName) parts.push('\n', name, '\t', uses.join(','));
  parts.push('\n');
  return parts.join('');
}

function definitionIndex(symbols: readonly SymbolDef[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (let i = 0; i < symbols.length; i++) {
    const at = index.get(symbols[i]!.name);
    if (at) at.push(i);
    else index.set(symbols[i]!.name, [i]);
  }
  return index;
}

/** Of the definitions named alike (by index), the last one starting at or before `line`. */
function nearestBefore(symbols: readonly SymbolDef[], at: number[], line: number): number {
  let best = at[0]!;
  for (const i of at) if (symbols[i]!.line <= line) best = i;
  return best;
}

export interface StoredUse {
  line: number;
  kind: ReferenceKind;
  /** Index of the enclosing definition in the row's symbols. */
  in?: number;
}

/** The uses of `name` in one row's encoded references (empty when it has none). */
export function usesIn(encoded: string | null, name: string): StoredUse[] {
  if (!encoded) return [];
  const key = '\n' + name + '\t';
  const at = encoded.indexOf(key);
  if (at < 0) return [];
  const from = at + key.length;
  const list = encoded.slice(from, encoded.indexOf('\n', from));
  const out: StoredUse[] = [];
  for (const use of list.split(',')) {
    const colon = use.indexOf(':');
    const line = Number(colon < 0 ? use.slice(1) : use.slice(1, colon));
    const kind = KIND[use[0]!] ?? 'other';
    out.push(colon < 0 ? { line, kind } : { line, kind, in: Number(use.slice(colon + 1)) });
  }
  return out;
}

/** Every name the encoded references use, in first-use order. */
export function namesIn(encoded: string | null): string[] {
  if (!encoded) return [];
  const out: string[] = [];
  for (let i = 1; i < encoded.length; ) {
    const tab = encoded.indexOf('\t', i);
    if (tab < 0) break;
    out.push(encoded.slice(i, tab));
    const nl = encoded.indexOf('\n', tab);
    if (nl < 0) break;
    i = nl + 1;
  }
  return out;
}
