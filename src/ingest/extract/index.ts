/**
 * The ingest stage's definition and import extraction: one line scanner per language family,
 * chosen by the language `languageOf` gave the file. Languages without a scanner are labelled
 * only; their files still reach the full-text index.
 */
import { extractGo } from './go.js';
import { extractJava } from './java.js';
import { extractPython } from './python.js';
import { extractRust } from './rust.js';
import type { Extraction } from './types.js';
import { extractTypeScript } from './typescript.js';

export type { Extraction, ImportRef, Reference, ReferenceKind, SymbolDef, SymbolKind } from './types.js';

/** Definitions and imports of `text` written in `language`; empty for languages without a scanner. */
export function extractDefinitions(language: string | null, text: string): Extraction {
  switch (language) {
    case 'typescript':
    case 'javascript':
      return extractTypeScript(text);
    case 'python':
      return extractPython(text);
    case 'go':
      return extractGo(text);
    case 'rust':
      return extractRust(text);
    case 'java':
      return extractJava(text);
    default:
      return { symbols: [], imports: [] };
  }
}
