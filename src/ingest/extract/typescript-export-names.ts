/**
 * Exports named apart from their declarations: `export { a, b as c }`, `export default A`,
 * `export = A` and the CommonJS forms (`module.exports = A`, `exports.a = a`,
 * `module.exports = { a, b: c }`). They may come before or after what they name, so the names
 * are collected while the file is read and applied to its top-level definitions at the end. A
 * class exported this way exports its methods too, except those marked private or `#`.
 */
import type { SymbolDef } from './types.js';
import { isIdentifierChar } from './typescript-tokens.js';

export class ExportNames {
  readonly #names = new Set<string>();
  // Definitions that stay unexported whatever a later export list names: private or `#` methods
  // (even when their class is exported), and local functions (typescript-function-expressions.ts).
  readonly #hidden = new Set<SymbolDef>();

  add(name: string): void {
    this.#names.add(name);
  }

  /** A definition that stays unexported whatever exports it or its class. */
  hide(symbol: SymbolDef): void {
    this.#hidden.add(symbol);
  }

  /** Adds the local names of an export list (`a, b as c, type D`) or CommonJS object (`a, b: c`). */
  addList(list: string, commonJs: boolean): void {
    const into = this.#names;
    for (const part of list.split(',')) {
      let item = part.trim();
      if (item.length === 0) continue;
      if (commonJs) {
        const colon = item.indexOf(':');
        if (colon >= 0) item = item.slice(colon + 1).trim();
      } else if (item.startsWith('type ')) item = item.slice(5).trim();
      let end = 0;
      while (end < item.length && isIdentifierChar(item.charCodeAt(end))) end++;
      if (end > 0) into.add(item.slice(0, end));
    }
  }

  /** Marks the top-level definitions named by an export, and the methods of exported classes. */
  applyTo(symbols: SymbolDef[]): void {
    if (this.#names.size === 0) return;
    const promoted = new Set<string>();
    for (const symbol of symbols) {
      if (!symbol.exported && symbol.parent === undefined && this.#names.has(symbol.name) && !this.#hidden.has(symbol)) {
        symbol.exported = true;
        if (symbol.kind === 'class') promoted.add(symbol.name);
      }
    }
    for (const symbol of symbols) {
      if (symbol.kind === 'method' && promoted.has(symbol.parent!) && !this.#hidden.has(symbol)) {
        symbol.exported = true;
      }
    }
  }
}
