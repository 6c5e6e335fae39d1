/**
 * The one place a definition record is built. A top-level definition has no `parent` key at
 * all, rather than `parent: undefined`: the records are compared, serialised and stored as they
 * are, and every scanner building them the same way keeps them one shape.
 */
import type { SymbolDef, SymbolKind } from './types.js';

export function symbolDef(
  name: string,
  kind: SymbolKind,
  line: number,
  exported: boolean,
  parent: string | undefined,
): SymbolDef {
  return parent === undefined ? { name, kind, line, exported } : { name, kind, line, exported, parent };
}
