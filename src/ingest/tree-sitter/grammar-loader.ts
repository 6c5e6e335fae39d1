/**
 * Loads tree-sitter grammars lazily, once per thread: the runtime (web-tree-sitter's own WASM)
 * on the first file that needs a grammar, each language's grammar and compiled query on the
 * first file of that language. A thread that only sees scanned languages never loads either
 * (a brain without a tree-sitter language pays nothing). A grammar or query that fails to load
 * stays failed for the thread's life: every file of that language gets its definitions skipped
 * with the same error, not a retry per file.
 *
 * A grammar is never loaded twice in a thread: each load copies its parse tables into the
 * thread's WebAssembly memory, which never shrinks, and V8 keeps its bytes besides (Kotlin's
 * cost 7.7 MB a load). A parser that threw mid-file is replaced by a fresh one on the same
 * grammar; after MAX_THROWS_PER_GRAMMAR throws the language is given up for the thread's life.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language as TsLanguage, Parser, Query } from 'web-tree-sitter';
import type { GrammarRow } from './grammars.js';
import { onBun } from '../../heap-growth.js';

export interface LoadedGrammar {
  row: GrammarRow;
  language: TsLanguage;
  /** Replaced by a fresh parser after a throw (grammarThrew). */
  parser: Parser;
  query: Query;
}

const QUERIES_DIR = new URL('./queries/', import.meta.url);
const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;

/**
 * web-tree-sitter's WebAssembly memory (its runtime and every grammar it loaded), made here and
 * handed to it (Emscripten's `wasmMemory` option) so its size can be read: the memory web-tree-sitter
 * would make itself, 32 MB to start (`INITIAL_MEMORY`), growing up to its maximum of 2 GB.
 */
let memory: WasmMemory | undefined;
const WASM_PAGE_BYTES = 65_536;
const INITIAL_MEMORY_BYTES = 32 << 20;
const MAXIMUM_MEMORY_PAGES = 32_768;

/** The part of the global WebAssembly API used here (the project's TypeScript lib has no DOM types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (limits: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;

/** The size of this thread's tree-sitter WebAssembly memory in bytes (0 before the runtime starts). */
export function treeSitterMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}

const loaded = new Map<GrammarRow, Promise<LoadedGrammar>>();
const loads = new Map<string, number>();
const throws = new Map<GrammarRow, number>();

/** Throws in one thread after which a language's files are failed without parsing. */
export const MAX_THROWS_PER_GRAMMAR = 3;

/** How many times this thread has loaded the grammar of `language` (a module load each), for tests. */
export function grammarLoads(language: string): number {
  return loads.get(language) ?? 0;
}

/** The grammar for `row`, loading the runtime and the grammar on first use in this thread. */
export function loadGrammar(row: GrammarRow): Promise<LoadedGrammar> {
  let entry = loaded.get(row);
  if (entry === undefined) {
    entry = loadNow(row);
    // Settled either way: a failure is remembered, not retried per file.
    entry.catch(() => {});
    loaded.set(row, entry);
  }
  return entry;
}

/**
 * After `grammar`'s parser threw mid-file (a trap leaves its state unknown): the next file of
 * the language gets a fresh parser on the same grammar, not a second copy of the grammar; past
 * MAX_THROWS_PER_GRAMMAR throws the language's files fail without parsing, for the thread's life.
 */
export function grammarThrew(grammar: LoadedGrammar): void {
  const { row } = grammar;
  const n = (throws.get(row) ?? 0) + 1;
  throws.set(row, n);
  try {
    grammar.parser.delete();
  } catch {
    // A parser the trap broke may not delete cleanly; it is dropped either way.
  }
  if (n >= MAX_THROWS_PER_GRAMMAR) {
    const given = Promise.reject(new Error(`it threw ${n} times in this thread; its files are no longer parsed here`));
    given.catch(() => {});
    loaded.set(row, given);
    return;
  }
  const parser = new Parser();
  parser.setLanguage(grammar.language);
  grammar.parser = parser;
}

/** Languages whose grammar this thread has asked for (loaded or failed), for tests and the bench. */
export function requestedGrammars(): string[] {
  return [...loaded.keys()].map((row) => row.language);
}

/** Whether this thread has started the tree-sitter runtime at all. */
export function runtimeStarted(): boolean {
  return runtime !== undefined;
}

/**
 * Grammars run on V8's baseline WebAssembly compiler only (Liftoff), never tiered up to
 * TurboFan. Measured here on C, C#, Kotlin and Ruby (docs/dependencies.md): tier-up costs
 * 50–60 MB per thread on Node 20 and over 500 MB on Node 24 (its hot lexers recompiled) for
 * 10–30% more parse speed. The flags are process-wide and read when a module is compiled and
 * run, so they are set before the first grammar; the other WebAssembly here (xxhash-wasm) is
 * tiny and already compiled. `--liftoff-only` alone is not enough at run time: V8 applies a
 * flag's implications only when it starts, and on Node 24 (V8 13) tier-up stays on unless both
 * tiering flags are turned off too (test/grammars-run-on-liftoff-only.test.ts). Bun runs
 * JavaScriptCore, which has no such flags.
 */
const BASELINE_WASM_FLAGS = ['--liftoff-only', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'] as const;

function preferBaselineWasm(): void {
  if (onBun) return;
  for (const flag of BASELINE_WASM_FLAGS) setFlagsFromString(flag);
}

async function loadNow(row: GrammarRow): Promise<LoadedGrammar> {
  if (runtime === undefined) preferBaselineWasm();
  memory ??= new Memory({ initial: INITIAL_MEMORY_BYTES / WASM_PAGE_BYTES, maximum: MAXIMUM_MEMORY_PAGES });
  runtime ??= Parser.init({ wasmMemory: memory } as Parameters<typeof Parser.init>[0]);
  await runtime;
  const wasm = join(dirname(require.resolve(`${row.package}/package.json`)), 'out', row.wasm);
  loads.set(row.language, grammarLoads(row.language) + 1);
  const language = await TsLanguage.load(wasm);
  const query = new Query(language, readQuery(row.language));
  const parser = new Parser();
  parser.setLanguage(language);
  return { row, language, parser, query };
}

/** Tree-sitter's own convention for a query that extends another language's: `; inherits: a,b`. */
const INHERITS = /^; inherits: ([\w,]+)$/m;

/**
 * The query of a language (the grammar authors' tags.scm, plus our imports): its file, after the
 * queries it inherits (a grammar that extends another, as TypeScript extends JavaScript, keeps
 * only its own patterns).
 */
export function readQuery(language: string): string {
  const own = readFileSync(new URL(`${language}.scm`, QUERIES_DIR), 'utf8');
  const parents = INHERITS.exec(own)?.[1]?.split(',') ?? [];
  return [...parents.map(readQuery), own].join('\n');
}
