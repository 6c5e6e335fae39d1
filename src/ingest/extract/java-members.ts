/**
 * The Java line tests: imports at the top level, and type, method and constant declarations at
 * the top level or directly in a type body. Nested types get their enclosing type as parent.
 * `static final` fields, and interface fields, are constants. A header split over lines
 * (`public final` / `class A`, `static <T> List<T>` / `of(…)`) is held and read with the next
 * line as one; the names it declares keep the line they are written on.
 *
 * Exported is `public`; members of an interface or annotation type are public by the language's
 * rule unless marked private.
 */
import { fieldNamesAt, methodNameAt, parseMember, wordAt } from './java-member-header.js';
import { skipBlanks } from './line-lexer.js';
import type { ScopeFrame, ScopeStack } from './scope-stack.js';
import { symbolDef } from './symbol-def.js';
import type { ImportRef, SymbolDef, SymbolKind } from './types.js';

/** The brace of a class, interface, enum, record or annotation type body. */
export const SCOPE_TYPE = 1;

const IMPORT = /^import\s+(?:static\s+)?([\w.]+\*?)\s*;/;
/** A line that goes on with the header above it (`throws X;` after a method signature). */
const CONTINUATION = /^(?:throws|extends|implements|permits)\b/;
/** How many lines one member header may take before it is given up on. */
const MAX_HEADER_LINES = 5;
/** A header with none of `(`, `=`, `;`, `{`, `}` has more to come on the next line. */
const INCOMPLETE_HEADER = /^[^(=;{}]*$/;
const TYPE_DECL = /^(class|interface|enum|record|@interface)\s+([A-Za-z_$][\w$]*)/;
const TYPE_KIND: Record<string, SymbolKind> = {
  class: 'class',
  record: 'class',
  interface: 'interface',
  '@interface': 'interface',
  enum: 'enum',
};

/** An open type body. */
export interface JavaFrame extends ScopeFrame {
  name: string;
  exported: boolean;
  /** Interface or annotation type: members are public unless marked private. */
  membersPublic: boolean;
  parenDepth: number;
}

export class JavaMembers {
  readonly symbols: SymbolDef[] = [];
  readonly imports: ImportRef[] = [];
  readonly #scopes: ScopeStack<JavaFrame>;
  // A member header cut across lines (`public final` / `class X`, `static <T> List<T>` /
  // `name(…)`): its first line waits here to be read with the next one.
  #heldText = '';
  #heldLine = 0;
  #heldLines = 0;

  constructor(scopes: ScopeStack<JavaFrame>) {
    this.#scopes = scopes;
  }

  /** The line `lineNo` from `pos` to `end`, which starts in code; tested only at the top level or directly in a type body. */
  readLine(text: string, pos: number, end: number, lineNo: number): void {
    const scopes = this.#scopes;
    const top = scopes.top();
    const frame = top === SCOPE_TYPE ? scopes.innermostFrame() : undefined;
    if (top !== -1 && (frame === undefined || scopes.parenDepth !== frame.parenDepth)) return;
    const i = skipBlanks(text, pos, end);
    const held = this.#heldLine === lineNo - 1 ? this.#heldText : '';
    if (held === '') this.#heldLines = 0;
    // A comment line between the two halves keeps the first one held.
    this.#heldLine = lineNo;
    this.#heldText = '';
    if (i >= end || (held === '' && !startsMember(text.charCodeAt(i)))) return;
    const line = stripComments(text.slice(i, end));
    let m: RegExpExecArray | null;
    if (line === '') this.#heldText = held;
    else if (top === -1 && (m = IMPORT.exec(line)) !== null) this.imports.push({ module: m[1]!, line: lineNo });
    else {
      const header = held === '' ? line : held + ' ' + line;
      // Where this line starts in the header: a name before it is on the held line.
      const lineOffset = header.length - line.length;
      const member = parseMember(header);
      if (member === undefined || CONTINUATION.test(member.rest)) return;
      const { rest, modifiers } = member;
      const restOffset = header.length - rest.length;
      const lineOf = (index: number) => (restOffset + index >= lineOffset ? lineNo : lineNo - 1);
      const isPublic =
        modifiers.has('public') || (frame !== undefined && frame.membersPublic && !modifiers.has('private'));
      const symbols = this.symbols;
      if ((m = TYPE_DECL.exec(rest)) !== null) {
        const kind = m[1]!;
        const name = m[2]!;
        symbols.push(symbolDef(name, TYPE_KIND[kind]!, lineOf(m[0].length - name.length), isPublic, frame?.name));
        const membersPublic = kind === 'interface' || kind === '@interface';
        scopes.expect(SCOPE_TYPE, { depth: 0, name, exported: isPublic, membersPublic, parenDepth: scopes.parenDepth });
      } else if (frame !== undefined) {
        let at = methodNameAt(rest, frame.name);
        if (at >= 0) symbols.push(symbolDef(wordAt(rest, at), 'method', lineOf(at), isPublic, frame.name));
        else if ((modifiers.has('static') && modifiers.has('final')) || frame.membersPublic) {
          const fields = fieldNamesAt(rest);
          for (const field of fields) {
            symbols.push(symbolDef(wordAt(rest, field), 'const', lineOf(field), isPublic, frame.name));
          }
          if (fields.length > 0) at = fields[0]!;
        }
        if (at < 0) this.#hold(header);
      } else this.#hold(header);
    }
  }

  #hold(header: string): void {
    // Annotations and modifiers may each take a line (`public final native` / `@A` / `@B` /
    // `Object get(…)`), but a header never runs on for long.
    if (this.#heldLines < MAX_HEADER_LINES - 1 && INCOMPLETE_HEADER.test(header)) {
      this.#heldText = header;
      this.#heldLines++;
    }
  }
}

/** Whether a line starting with `c` can begin a declaration (a letter, `_`, `$`, `@`, `<`, or `/*`). */
function startsMember(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 64 || c === 95 || c === 36 || c === 60 || c === 47;
}

/**
 * The line without a leading block comment that closes on it (`/* package *\/ class A`) and
 * without a trailing line comment (`private // why`). A `//` counts only after a blank, so
 * `"http://x"` in an initializer stays.
 */
function stripComments(line: string): string {
  if (line.startsWith('//')) return '';
  if (line.startsWith('/*')) {
    const close = line.indexOf('*/', 2);
    if (close < 0) return '';
    line = line.slice(close + 2).trimStart();
  }
  const comment = line.indexOf(' //');
  return comment < 0 ? line : line.slice(0, comment).trimEnd();
}
