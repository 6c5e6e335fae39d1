/**
 * Which definition each use of a name names, for `refs` and `impact`. A use is resolved, never
 * guessed:
 *
 *   - In TypeScript, JavaScript and Python a top-level definition reaches another file only
 *     through an import. A file that defines the name uses its own; a file that imports it
 *     (named, default, aliased) uses what the import's file (src/resolve/) defines, followed
 *     through re-exports and `export *` barrels a few steps; a file whose imports reach a
 *     definition of it otherwise (`import * as ns`, then `ns.name(`) uses that one.
 *   - A member use (`x.name(`) of a method resolves to `X.name` when it sits inside class `X`
 *     and `X` defines it (`this.name()`); any other member use of a method name is unresolved.
 *   - In the languages whose files see each other without an import (Go's package, Java's,
 *     Rust's crate paths), a use resolves to the file's own definition, else to the only one.
 *
 * What is left is `null` (unresolved: kept and labelled), `A_METHOD` (unresolved among the
 * methods: a member use on an unknown receiver where no import can bring a function of the
 * name, so it is never a use of a top-level definition) or `NOT_THIS_NAME` (the file uses a
 * name of the same spelling that none of the definitions can be: a dependency's, a builtin, a
 * method of an unknown class while the asked definitions are functions): counted, not listed.
 */
import type { Database } from '../store/index.js';
import type { DefinitionHit, FileUses } from '../store/index.js';
import type { CodeGraph } from '../skeleton/index.js';
import type { SymbolDef } from '../ingest/extract/types.js';
import { usesIn } from '../ingest/index.js';

/** Languages where another file reaches a top-level definition only by importing it. */
export const MODULE_LANGUAGES = new Set(['typescript', 'javascript', 'python', 'vue', 'svelte']);
/** Re-export steps followed from an import to the definition (a barrel of barrels…). */
const MAX_REEXPORT_STEPS = 4;
/** Imports of a file tried for a definition reached without naming it (namespace imports). */
const MAX_NAMESPACE_IMPORTS = 32;

/** Lines an import's clause may span below the line it starts on (`import {` … `} from 'x'`). */
const MAX_IMPORT_LINES = 30;

export const NOT_THIS_NAME = 'not-this-name' as const;
/**
 * Unresolved, but only among the name's methods (or a dependency's): a member use (`x.name(`)
 * of an unknown receiver in a file whose imports reach no top-level definition of the name.
 */
export const A_METHOD = 'a-method' as const;
export type UseDefinition = DefinitionHit | null | typeof NOT_THIS_NAME | typeof A_METHOD;

interface FileFacts {
  imports: { module: string; line: number }[];
  refs: string | null;
  symbols: SymbolDef[];
}

export class UseDefinitions {
  readonly #db: Database;
  readonly #graph: CodeGraph;
  readonly #name: string;
  readonly #top = new Map<string, DefinitionHit>();
  readonly #methods = new Map<string, DefinitionHit[]>();
  readonly #hasMethods: boolean;
  readonly #all: DefinitionHit[];
  readonly #facts = new Map<string, FileFacts | null>();
  readonly #reached = new Map<string, DefinitionHit | null>();
  readonly #passing = new Map<string, boolean>();
  readonly #labelMethods: boolean;

  /**
   * `labelMethods`: tell `A_METHOD` from `null` for member uses (refs does; impact, which counts
   * neither, skips the import walk it costs).
   */
  constructor(db: Database, graph: CodeGraph, name: string, definitions: DefinitionHit[], labelMethods = true) {
    this.#labelMethods = labelMethods;
    this.#db = db;
    this.#graph = graph;
    this.#name = name;
    this.#all = definitions;
    for (const d of definitions) {
      if (d.parent === undefined) {
        if (!this.#top.has(d.path)) this.#top.set(d.path, d);
      } else {
        const list = this.#methods.get(d.path) ?? [];
        list.push(d);
        this.#methods.set(d.path, list);
      }
    }
    this.#hasMethods = this.#methods.size > 0;
  }

  /** The definition each of the file's uses names, in the order of `file.uses`. */
  of(file: FileUses): UseDefinition[] {
    const language = this.#graph.byPath.get(file.path)?.language ?? null;
    const modular = MODULE_LANGUAGES.has(language ?? '');
    const own = this.#top.get(file.path);
    let binding: UseDefinition | undefined;
    const bound = (): UseDefinition => (binding ??= own ?? (modular ? this.#importedHere(file) : this.#byName(file.path)));
    return file.uses.map((u) => {
      // The name in an import clause (`import { name as other }`) names what that import's file passes on.
      if (modular && u.kind === 'other' && own !== undefined) {
        const through = this.#throughImportAt(file.path, u.line);
        if (through !== undefined) return through;
      }
      if (u.kind !== 'member') return bound();
      // `x.name(`: a method of the class the use sits in, else of some receiver not known here.
      const method = this.#methodAround(file.path, u.in);
      if (method !== undefined) return method;
      // No namespace import can carry a top-level definition here: the receiver is some object.
      if (this.#hasMethods) return this.#labelMethods && modular && bound() === NOT_THIS_NAME ? A_METHOD : null;
      const b = bound();
      return b === null && modular ? NOT_THIS_NAME : b;
    });
  }

  /** What the import on `line` of the file passes on for the name; undefined when no import is there. */
  #throughImportAt(path: string, line: number): UseDefinition | undefined {
    const facts = this.#factsOf(path);
    const imp = facts === null ? undefined : facts.imports.find((i) => i.line === line);
    if (imp === undefined) return undefined;
    const target = this.#resolvedTarget(path, imp);
    return target === undefined ? NOT_THIS_NAME : this.#reach(target, 0) ?? this.#unreached(target);
  }

  /** An import of a file that passes on no definition of the name: a component file (Vue, Svelte) binds its own component, anything else stays unresolved. */
  #unreached(target: string): UseDefinition {
    const language = this.#graph.byPath.get(target)?.language;
    return language === 'vue' || language === 'svelte' ? NOT_THIS_NAME : null;
  }

  /** A module file that does not define the name: what its import of the name names. */
  #importedHere(file: FileUses): UseDefinition {
    const facts = this.#factsOf(file.path);
    if (facts === null) return null;
    const importLine = file.uses.find((u) => u.kind === 'other' && this.#coveringImport(facts, u.line) !== undefined);
    if (importLine !== undefined) {
      const imp = this.#coveringImport(facts, importLine.line)!;
      const target = this.#resolvedTarget(file.path, imp);
      if (target === undefined) return NOT_THIS_NAME; // imported from a dependency
      return this.#reach(target, 0) ?? this.#unreached(target);
    }
    // Reached without naming it: `import * as ns from './m'`, then `ns.name(`.
    const targets = this.#graph.byPath.get(file.path)?.imports ?? [];
    for (const imp of targets.slice(0, MAX_NAMESPACE_IMPORTS)) {
      const hit = this.#reach(imp.target, 0);
      if (hit !== null && this.#passesOn(imp.target)) return hit;
    }
    return NOT_THIS_NAME;
  }

  /**
   * Whether a file seen through a namespace import carries the name as one of its exports: it
   * defines it, or mentions it on import and export lines only (a barrel). A file that imports
   * the name to call it (`import { match }` then `match(…)`) passes nothing on to its importers.
   */
  #passesOn(path: string): boolean {
    if (this.#top.has(path)) return true;
    let passes = this.#passing.get(path);
    if (passes === undefined) {
      const facts = this.#factsOf(path);
      passes = facts === null || usesIn(facts.refs, this.#name).every((u) => u.kind === 'other' && this.#coveringImport(facts, u.line) !== undefined);
      this.#passing.set(path, passes);
    }
    return passes;
  }

  /** The definition a file passes on for the name: its own, or what it re-exports, a few steps out. */
  #reach(path: string, step: number): DefinitionHit | null {
    const own = this.#top.get(path);
    if (own !== undefined) return own;
    if (step >= MAX_REEXPORT_STEPS) return null;
    const key = path;
    if (this.#reached.has(key)) return this.#reached.get(key)!;
    this.#reached.set(key, null); // a cycle of barrels ends here
    const facts = this.#factsOf(path);
    let hit: DefinitionHit | null = null;
    if (facts !== null) {
      // `export { name } from './x'` (or an import of it passed on), then `export * from './y'`.
      const named = usesIn(facts.refs, this.#name).filter((u) => u.kind === 'other');
      const lines = named.length > 0 ? named.map((u) => u.line) : usesIn(facts.refs, '*').map((u) => u.line);
      for (const line of lines) {
        const imp = this.#coveringImport(facts, line);
        const target = imp === undefined ? undefined : this.#resolvedTarget(path, imp);
        if (target === undefined) continue;
        hit = this.#reach(target, step + 1);
        if (hit !== null) break;
      }
    }
    this.#reached.set(key, hit);
    return hit;
  }

  /** A method `name` of the class enclosing the use (`this.name()` inside `X`), when that class defines one. */
  #methodAround(path: string, within: string | undefined): DefinitionHit | undefined {
    const methods = this.#methods.get(path);
    if (methods === undefined || within === undefined) return undefined;
    const facts = this.#factsOf(path);
    const cls = facts?.symbols.find((s) => s.name === within && s.parent !== undefined)?.parent ?? (methods.some((m) => m.parent === within) ? within : undefined);
    return cls === undefined ? undefined : methods.find((m) => m.parent === cls);
  }

  /** Go, Java, Rust…: the file's own definition, else the only one there is. */
  #byName(path: string): UseDefinition {
    const here = this.#methods.get(path)?.[0];
    if (here !== undefined) return here;
    return this.#all.length === 1 ? this.#all[0]! : null;
  }

  #coveringImport(facts: FileFacts, line: number): { module: string; line: number } | undefined {
    let covering: { module: string; line: number } | undefined;
    for (const imp of facts.imports) {
      if (imp.line === line) return imp;
      if (imp.line < line && (covering === undefined || imp.line >= covering.line)) covering = imp;
    }
    // A clause name of a multi-line import sits a few lines below its start; a use further down is no import.
    return covering !== undefined && line - covering.line <= MAX_IMPORT_LINES ? covering : undefined;
  }

  #resolvedTarget(path: string, imp: { module: string; line: number }): string | undefined {
    return this.#graph.byPath.get(path)?.imports.find((i) => i.line === imp.line && i.module === imp.module)?.target;
  }

  #factsOf(path: string): FileFacts | null {
    let facts = this.#facts.get(path);
    if (facts !== undefined) return facts;
    // By the row id the graph holds (the path checked: a row deleted since may have given its id away).
    const id = this.#graph.byPath.get(path)?.id;
    const row = id === undefined ? undefined : this.#db.prepare('SELECT imports, refs, symbols FROM files WHERE id = ? AND path = ?').get<{ imports: string; refs: string | null; symbols: string }>(id, path);
    facts = row === undefined ? null : { imports: JSON.parse(row.imports) as FileFacts['imports'], refs: row.refs, symbols: JSON.parse(row.symbols) as SymbolDef[] };
    this.#facts.set(path, facts);
    return facts;
  }
}
