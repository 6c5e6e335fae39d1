/**
 * Loads tree-sitter grammars lazily, once per thread: the runtime (web-tree-sitter's own WASM)
 * on the first file that needs a grammar, each language's grammar and compiled query on the
 * first file of that language. A thread that only sees scanned languages never loads either
 * (a brain without a tree-sitter language pays nothing). A grammar or query that fails to load
 * stays failed for the thread's life: every file of that language gets its definitions skipped
 * with the same error, not a retry per file.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Language as TsLanguage, Parser, Query } from 'web-tree-sitter';
import type { GrammarRow } from './grammars.js';

export interface LoadedGrammar {
  row: GrammarRow;
  parser: Parser;
  query: Query;
}

const QUERIES_DIR = new URL('./queries/', import.meta.url);
const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const loaded = new Map<GrammarRow, Promise<LoadedGrammar>>();

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
 * Drops a grammar whose parser threw mid-file (a trap leaves its state unknown): the next file
 * of the language loads it afresh instead of reusing a parser that may be broken.
 */
export function forgetGrammar(row: GrammarRow): void {
  const entry = loaded.get(row);
  loaded.delete(row);
  entry?.then((g) => g.parser.delete(), () => {});
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
 * 50–60 MB per thread on Node 20 and over 500 MB on Node 24 (lazy compilation of the large
 * grammars) for 10–30% more parse speed. The flag is process-wide and read when a module is
 * compiled, so it is set before the first grammar; the other WebAssembly here (xxhash-wasm) is
 * tiny and already compiled. Bun runs JavaScriptCore, which has no such flag.
 */
function preferBaselineWasm(): void {
  if ((process.versions as Record<string, string | undefined>).bun !== undefined) return;
  setFlagsFromString('--liftoff-only');
}

async function loadNow(row: GrammarRow): Promise<LoadedGrammar> {
  if (runtime === undefined) preferBaselineWasm();
  runtime ??= Parser.init();
  await runtime;
  const wasm = join(dirname(require.resolve(`${row.package}/package.json`)), 'out', row.wasm);
  const language = await TsLanguage.load(wasm);
  const query = new Query(language, readQuery(row.language));
  const parser = new Parser();
  parser.setLanguage(language);
  return { row, parser, query };
}

/** The query file of a language (the grammar authors' tags.scm, plus our imports). */
export function readQuery(language: string): string {
  return readFileSync(new URL(`${language}.scm`, QUERIES_DIR), 'utf8');
}
