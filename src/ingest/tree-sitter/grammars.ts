/**
 * The languages parsed with tree-sitter: one row per language, naming the prebuilt WASM grammar
 * (from a registry package, never built at install, never downloaded at run time), the query
 * file beside this module (queries/<language>.scm) and the language's rule for what is exported.
 * Adding a language is adding a row here, a query file, and its extensions in ../language.ts.
 *
 * Two grammar packages, because neither holds all: @cursorless/tree-sitter-wasms (built with
 * tree-sitter 0.24, the newer grammars) and tree-sitter-wasms (built with 0.20; the only one
 * with Objective-C, OCaml, Solidity, Emacs Lisp and ReScript). Both load in web-tree-sitter
 * 0.25.10 (pinned: a runtime newer or older than the grammars' ABI range fails at load, the
 * usual trap), on Node 20, Node 24 and Bun — test/tree-sitter-grammars-load.test.ts checks
 * every row on each.
 *
 * The six languages with line scanners (extract/) have rows marked `scanned`: ingest never routes
 * them here (the scanners are 11–39× faster, docs/dependencies.md), but the shared extractor
 * suite and the bench's side-by-side measurement use them.
 */
import type { Language } from '../language.js';

export type GrammarPackage = '@cursorless/tree-sitter-wasms' | 'tree-sitter-wasms';

export interface GrammarRow {
  language: Language;
  /** The registry package that ships the WASM file, and the file inside its `out/` folder. */
  package: GrammarPackage;
  wasm: string;
  /**
   * A definition is not exported when the source text from its node's start to its name
   * matches this (`static`, `private`, `local`, `defp`…); absent: every definition is.
   */
  hidden?: RegExp;
  /** A definition whose name matches this is not exported either (Dart's `_name`, Perl's `_sub`). */
  hiddenName?: RegExp;
  /**
   * A line scanner handles this language in ingest (it is faster); the row serves the shared
   * extractor suite and the bench's side-by-side measurement only.
   */
  scanned?: true;
}

const CL: GrammarPackage = '@cursorless/tree-sitter-wasms';
const TW: GrammarPackage = 'tree-sitter-wasms';

export const GRAMMARS: readonly GrammarRow[] = [
  { language: 'c', package: CL, wasm: 'tree-sitter-c.wasm', hidden: /\bstatic\b/ },
  { language: 'cpp', package: CL, wasm: 'tree-sitter-cpp.wasm', hidden: /\bstatic\b/ },
  { language: 'csharp', package: CL, wasm: 'tree-sitter-c_sharp.wasm', hidden: /\b(?:private|internal|protected)\b/ },
  { language: 'objc', package: TW, wasm: 'tree-sitter-objc.wasm', hidden: /\bstatic\b/ },
  { language: 'kotlin', package: CL, wasm: 'tree-sitter-kotlin.wasm', hidden: /\b(?:private|internal|protected)\b/ },
  { language: 'swift', package: CL, wasm: 'tree-sitter-swift.wasm', hidden: /\b(?:private|fileprivate)\b/ },
  { language: 'scala', package: CL, wasm: 'tree-sitter-scala.wasm', hidden: /\b(?:private|protected)\b/ },
  { language: 'dart', package: CL, wasm: 'tree-sitter-dart.wasm', hiddenName: /^_/ },
  { language: 'ruby', package: CL, wasm: 'tree-sitter-ruby.wasm' },
  { language: 'php', package: CL, wasm: 'tree-sitter-php.wasm', hidden: /\b(?:private|protected)\b/ },
  { language: 'lua', package: CL, wasm: 'tree-sitter-lua.wasm', hidden: /^local\b/ },
  { language: 'shell', package: CL, wasm: 'tree-sitter-bash.wasm' },
  { language: 'perl', package: CL, wasm: 'tree-sitter-perl.wasm', hiddenName: /^_/ },
  { language: 'r', package: CL, wasm: 'tree-sitter-r.wasm', hiddenName: /^\./ },
  { language: 'elixir', package: CL, wasm: 'tree-sitter-elixir.wasm', hidden: /^def(?:p|macrop)\b/ },
  { language: 'elm', package: CL, wasm: 'tree-sitter-elm.wasm' },
  { language: 'haskell', package: CL, wasm: 'tree-sitter-haskell.wasm' },
  { language: 'gleam', package: CL, wasm: 'tree-sitter-gleam.wasm', hidden: /^(?!pub\b)/ },
  { language: 'zig', package: CL, wasm: 'tree-sitter-zig.wasm', hidden: /^(?!pub\b)/ },
  { language: 'ocaml', package: TW, wasm: 'tree-sitter-ocaml.wasm' },
  { language: 'rescript', package: TW, wasm: 'tree-sitter-rescript.wasm' },
  { language: 'solidity', package: TW, wasm: 'tree-sitter-solidity.wasm', hidden: /\b(?:private|internal)\b/ },
  { language: 'elisp', package: TW, wasm: 'tree-sitter-elisp.wasm', hiddenName: /--/ },
  // The scanned six: never routed here by ingest (see `scanned`).
  { language: 'typescript', package: CL, wasm: 'tree-sitter-typescript.wasm', scanned: true },
  { language: 'javascript', package: CL, wasm: 'tree-sitter-javascript.wasm', scanned: true },
  { language: 'python', package: CL, wasm: 'tree-sitter-python.wasm', hiddenName: /^_/, scanned: true },
  { language: 'go', package: CL, wasm: 'tree-sitter-go.wasm', hiddenName: /^[^A-Z]/, scanned: true },
  { language: 'rust', package: CL, wasm: 'tree-sitter-rust.wasm', hidden: /^(?!pub\b)/, scanned: true },
  { language: 'java', package: CL, wasm: 'tree-sitter-java.wasm', hidden: /\b(?:private|protected)\b/, scanned: true },
];

const ROUTED: ReadonlyMap<string, GrammarRow> = new Map(GRAMMARS.filter((g) => !g.scanned).map((g) => [g.language, g]));
const ANY: ReadonlyMap<string, GrammarRow> = new Map(GRAMMARS.map((g) => [g.language, g]));

/**
 * The tree-sitter row ingest uses for `language`, or undefined when a scanner (or nothing)
 * handles it. `{ scanned: true }` also returns the rows of the scanned languages.
 */
export function grammarRowOf(language: string | null, options: { scanned?: boolean } = {}): GrammarRow | undefined {
  if (language === null) return undefined;
  return (options.scanned ? ANY : ROUTED).get(language);
}
