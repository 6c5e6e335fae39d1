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
import type { Reference, ReferenceKind, SymbolDef } from '../ingest/extract/types.js';

const LETTER: Record<ReferenceKind, string> = { call: 'c', type: 't', new: 'n', inherit: 'i', decorator: 'd', member: 'm', other: 'o' };
const KIND: Record<string, ReferenceKind> = { c: 'call', t: 'type', n: 'new', i: 'inherit', d: 'decorator', m: 'member', o: 'other' };

export function encodeReferences(symbols: readonly SymbolDef[], references: readonly Reference[]): string {
  if (references.length === 0) return '';
  // One growing string per name (V8 concatenates without copying): no arrays to join.
  const byName = new Map<string, string>();
  let index: Map<string, number[]> | undefined;
  for (const r of references) {
    let use = LETTER[r.kind] + r.line;
    if (r.in !== undefined) {
      if (index === undefined) index = definitionIndex(symbols);
      const at = index.get(r.in);
      if (at !== undefined) use += ':' + (at.length === 1 ? at[0]! : nearestBefore(symbols, at, r.line));
    }
    const uses = byName.get(r.name);
    byName.set(r.name, uses === undefined ? use : uses + ',' + use);
  }
  let out = '';
  for (const [name, uses] of byName) out += '\n' + name + '\t' + uses;
  return out + '\n';
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
