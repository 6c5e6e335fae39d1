/**
 * What the extractors hand back for one file: the named definitions a reader would look up,
 * and the modules the file pulls in. Both carry the 1-based line where they start, so a hit
 * can be opened at the right place.
 */

/** The shape of a definition. Languages map their own forms onto this short list. */
export type SymbolKind =
  | 'function'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'method'
  | 'const'
  | 'struct'
  | 'trait'
  | 'module';

export interface SymbolDef {
  name: string;
  kind: SymbolKind;
  /** 1-based line of the declaration keyword (not of a decorator or doc comment above it). */
  line: number;
  /** Visible outside its module by the language's own rule (export, pub, public, Capital, no `_`). */
  exported: boolean;
  /**
   * The enclosing class/impl/trait/struct for methods, or namespace/module for nested items. Absent at
   * top level, and for a local definition (a function or class inside a function: never exported).
   */
  parent?: string;
}

export interface ImportRef {
  /** The module as written in the source (`node:fs`, `./a.js`, `.backoff`, `std::io::Read`, `java.util.List`). */
  module: string;
  /** 1-based line where the import statement starts. */
  line: number;
}

/** How a reference uses the name, as far as the extractor can tell. */
export type ReferenceKind = 'call' | 'type' | 'new' | 'inherit' | 'decorator' | 'member' | 'other';

/**
 * A place where the file uses a name that a definition may carry (a call, a type, `new X`,
 * inheritance, a decorator, a member call by name). Resolution to a definition happens at
 * query time, by name: the extractor only says what was written where.
 */
export interface Reference {
  name: string;
  /** 1-based line of the use. */
  line: number;
  kind: ReferenceKind;
  /** The enclosing definition's name (the caller), absent at top level. */
  in?: string;
}

export interface Extraction {
  symbols: SymbolDef[];
  imports: ImportRef[];
  /** Uses of names, for `refs` and `impact`; absent where an extractor does not emit them yet. */
  references?: Reference[];
}
