/**
 * Definitions, imports and references of one file through its tree-sitter grammar: parse, run
 * the language's query, and read the captures by the grammar authors' tags convention
 * (`@definition.<kind>` + `@name`, `@reference.<kind>` + `@name`) plus ours (`@import`, the
 * node naming the module). The result has the scanners' shape (extract/types.ts).
 *
 * Every file is bounded: over `maxBytes` it is not parsed; a parse or query running past
 * `budgetMs` is cancelled. Either way the caller gets a reason, the file still reaches the
 * full-text index and the batch goes on.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { Extraction, ImportRef, Reference, ReferenceKind, SymbolDef, SymbolKind } from '../extract/types.js';
import type { LoadedGrammar } from './grammar-loader.js';

export interface TreeSitterBounds {
  /** Files larger than this are not parsed (bytes). @default TREE_SITTER_MAX_BYTES */
  maxBytes: number;
  /** Parse plus query time allowed per file (ms). @default TREE_SITTER_BUDGET_MS */
  budgetMs: number;
  /** The clock the budget is read from. @default performance.now */
  now?: () => number;
}

/** 1 MiB: a hand-written source file is far smaller; past it is generated code, parsed at 2–4 MB/s for little. */
export const TREE_SITTER_MAX_BYTES = 1 << 20;
/** A 1 MiB file parses in well under a second here; twice that means something is wrong with the input. */
export const TREE_SITTER_BUDGET_MS = 2000;
/** Bounds the references one file can add to the store (a generated file calls thousands of things). */
export const MAX_REFERENCES_PER_FILE = 5000;
/** Enough of a declaration's head to see its modifiers (`public static final …`) and no more. */
const MODIFIER_WINDOW_CHARS = 240;

export type TreeSitterOutcome =
  | { ok: true; extraction: Extraction }
  | { ok: false; code: 'too_large' | 'timed_out'; message: string };

const DEFINITION_KINDS: Readonly<Record<string, SymbolKind>> = {
  function: 'function',
  method: 'method',
  class: 'class',
  interface: 'interface',
  protocol: 'interface',
  module: 'module',
  namespace: 'module',
  object: 'module',
  type: 'type',
  typedef: 'type',
  enum: 'enum',
  struct: 'struct',
  union: 'struct',
  record: 'struct',
  trait: 'trait',
  constant: 'const',
  macro: 'const',
  contract: 'class',
  library: 'module',
};

const REFERENCE_KINDS: Readonly<Record<string, ReferenceKind>> = {
  call: 'call',
  send: 'member',
  class: 'type',
  type: 'type',
  interface: 'type',
  implementation: 'inherit',
  inherit: 'inherit',
  new: 'new',
  decorator: 'decorator',
};

const CONTAINER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'module', 'struct', 'trait', 'enum']);
const TYPE_CONTAINERS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'struct', 'trait', 'enum']);

interface Found extends SymbolDef {
  start: number;
  end: number;
}

export function extractWithTreeSitter(
  grammar: LoadedGrammar,
  text: string,
  byteLength: number,
  bounds: TreeSitterBounds,
): TreeSitterOutcome {
  if (byteLength > bounds.maxBytes) {
    return { ok: false, code: 'too_large', message: `${byteLength} bytes is over the ${bounds.maxBytes}-byte bound for parsing` };
  }
  const now = bounds.now ?? (() => performance.now());
  const started = now();
  const overBudget = () => now() - started > bounds.budgetMs;
  let tree: Tree | null;
  try {
    tree = grammar.parser.parse(text, null, { progressCallback: overBudget as unknown as () => void });
  } finally {
    // A cancelled parse leaves state behind that the next parse would resume from.
    grammar.parser.reset();
  }
  if (tree === null) return { ok: false, code: 'timed_out', message: `parsing took over ${bounds.budgetMs} ms; cancelled` };
  try {
    const left = Math.max(1, bounds.budgetMs - (now() - started));
    let cancelled = false;
    const matches = grammar.query.matches(tree.rootNode, {
      progressCallback: () => (cancelled ||= overBudget()) as unknown as void,
      timeoutMicros: Math.round(left * 1000),
    });
    if (cancelled || overBudget()) return { ok: false, code: 'timed_out', message: `its query took over ${bounds.budgetMs} ms; cancelled` };
    return { ok: true, extraction: readMatches(grammar, text, matches) };
  } finally {
    tree.delete();
  }
}

type Match = ReturnType<LoadedGrammar['query']['matches']>[number];

function readMatches(grammar: LoadedGrammar, text: string, matches: Match[]): Extraction {
  const defs: Found[] = [];
  const refs: { name: string; line: number; kind: ReferenceKind; start: number }[] = [];
  const imports: ImportRef[] = [];
  const seenDefs = new Set<string>();
  const seenImports = new Set<string>();
  for (const match of matches) {
    let role: string | undefined;
    let node: Node | undefined;
    let name: Node | undefined;
    for (const c of match.captures) {
      if (c.name === 'name') name ??= c.node;
      else if (c.name === 'import') {
        const module = moduleText(c.node.text);
        const line = c.node.startPosition.row + 1;
        const key = `${line}\0${module}`;
        if (module !== '' && !seenImports.has(key)) (seenImports.add(key), imports.push({ module, line }));
      } else if (c.name.startsWith('definition.') || c.name.startsWith('reference.')) {
        role ??= c.name;
        node ??= c.node;
      }
    }
    if (role === undefined || node === undefined || name === undefined) continue;
    const dot = role.indexOf('.');
    const family = role.slice(0, dot);
    const sub = role.slice(dot + 1);
    const line = name.startPosition.row + 1;
    if (family === 'definition') {
      const kind = DEFINITION_KINDS[sub];
      const symbol = name.text;
      if (kind === undefined || symbol === '' || symbol.length > 200) continue;
      const key = `${line}\0${symbol}`;
      if (seenDefs.has(key)) continue;
      seenDefs.add(key);
      const whole = extent(node);
      defs.push({ name: symbol, kind, line, exported: isExported(grammar, text, whole, name), start: whole.startIndex, end: whole.endIndex });
    } else if (refs.length < MAX_REFERENCES_PER_FILE) {
      const kind = REFERENCE_KINDS[sub] ?? 'other';
      if (name.text !== '' && name.text.length <= 200) refs.push({ name: name.text, line, kind, start: name.startIndex });
    }
  }
  return { symbols: nest(defs), imports, references: attribute(defs, refs) };
}

/**
 * The whole definition a capture stands for: C-family tags capture the declarator
 * (`helper(int x)`), whose modifiers (`static`) and body sit in the enclosing definition.
 */
function extent(node: Node): Node {
  let n = node;
  while (n.type.endsWith('declarator') && n.parent !== null) n = n.parent;
  return n;
}

function isExported(grammar: LoadedGrammar, text: string, node: Node, name: Node): boolean {
  const { hidden, hiddenName } = grammar.row;
  if (hiddenName?.test(name.text)) return false;
  if (hidden === undefined) return true;
  const head = text.slice(node.startIndex, Math.min(name.startIndex, node.startIndex + MODIFIER_WINDOW_CHARS));
  return !hidden.test(head);
}

/** Parents from containment: the innermost enclosing class/module/…; a function inside a type is a method. */
function nest(defs: Found[]): SymbolDef[] {
  const order = [...defs].sort((a, b) => a.start - b.start || b.end - a.end);
  const stack: Found[] = [];
  const out = new Map<Found, SymbolDef>();
  for (const d of order) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
    const parent = stack[stack.length - 1];
    const kind = d.kind === 'function' && parent !== undefined && TYPE_CONTAINERS.has(parent.kind) ? 'method' : d.kind;
    const def: SymbolDef = { name: d.name, kind, line: d.line, exported: d.exported };
    if (parent !== undefined && parent !== d) def.parent = parent.name;
    out.set(d, def);
    if (CONTAINER_KINDS.has(d.kind)) stack.push(d);
  }
  // In source order, as the scanners give them.
  return defs.map((d) => out.get(d)!).sort((a, b) => a.line - b.line);
}

/** Each reference's `in`: the innermost definition around it, by a sweep over both in source order. */
function attribute(defs: Found[], refs: { name: string; line: number; kind: ReferenceKind; start: number }[]): Reference[] {
  const order = [...defs].sort((a, b) => a.start - b.start || b.end - a.end);
  refs.sort((a, b) => a.start - b.start);
  const stack: Found[] = [];
  const out: Reference[] = [];
  let next = 0;
  for (const r of refs) {
    while (next < order.length && order[next]!.start <= r.start) {
      const d = order[next++]!;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
      stack.push(d);
    }
    while (stack.length > 0 && stack[stack.length - 1]!.end <= r.start) stack.pop();
    const around = stack[stack.length - 1];
    const ref: Reference = { name: r.name, line: r.line, kind: r.kind };
    if (around !== undefined) ref.in = around.name;
    out.push(ref);
  }
  return out;
}

/**
 * `"foo/bar.h"` → foo/bar.h, `<stdio.h>` → stdio.h, `'./x'` → ./x; a whole statement captured
 * where the grammar splits the path into pieces (`import scala.util.Try`) loses its keyword.
 */
function moduleText(raw: string): string {
  const t = raw.trim().replace(/^import\s+/, '');
  if (t.length >= 2 && /^["'`<]/.test(t) && /["'`>]$/.test(t)) return t.slice(1, -1).trim();
  return t;
}
