/**
 * The one place a file's language picks its extraction path: a line scanner (extract/) for the
 * six languages where scanners are measured fastest, the script blocks of Vue and Svelte
 * components through the same scanner, and a tree-sitter grammar for every language in
 * tree-sitter/grammars.ts. Both paths give the same `Extraction`.
 *
 * A tree-sitter file that cannot be parsed (its grammar fails to load or throws, it is over the
 * size bound, its parse runs past the time bound) still gets an empty extraction, and a note
 * naming why: the caller indexes its text and raises an alert, and the batch goes on.
 */
import { extractDefinitions } from './extract/index.js';
import { extractScriptBlocks } from './extract/script-blocks.js';
import type { Extraction } from './extract/types.js';
import {
  extractWithTreeSitter,
  grammarRowOf,
  grammarThrew,
  loadGrammar,
  type LoadedGrammar,
  TREE_SITTER_BUDGET_MS,
  TREE_SITTER_MAX_BYTES,
  type GrammarRow,
  type TreeSitterBounds,
} from './tree-sitter/index.js';

export interface ExtractionNote {
  /** `extract_skipped` (too large, timed out) or `extract_failed` (the grammar failed or threw). */
  code: 'extract_skipped' | 'extract_failed';
  message: string;
}

export interface FileExtraction {
  extraction: Extraction;
  note?: ExtractionNote;
}

const EMPTY: Extraction = { symbols: [], imports: [] };

const DEFAULT_BOUNDS: TreeSitterBounds = { maxBytes: TREE_SITTER_MAX_BYTES, budgetMs: TREE_SITTER_BUDGET_MS };

/** Whether `language` goes through a grammar (and so may cost a grammar load). */
export function usesTreeSitter(language: string | null): boolean {
  return grammarRowOf(language) !== undefined;
}

export async function extractFile(
  language: string | null,
  text: string,
  byteLength: number,
  options: {
    bounds?: TreeSitterBounds;
    /** The grammar row to use instead of the language's own (tests). */
    row?: GrammarRow;
    /** How the grammar is loaded (tests inject one that throws). @default loadGrammar */
    load?: (row: GrammarRow) => Promise<LoadedGrammar>;
  } = {},
): Promise<FileExtraction> {
  if (language === 'vue' || language === 'svelte') {
    return { extraction: extractScriptBlocks(text, (lang, body) => extractDefinitions(lang, body)) };
  }
  const row = options.row ?? grammarRowOf(language);
  if (row === undefined) return { extraction: extractDefinitions(language, text) };
  let grammar: LoadedGrammar;
  try {
    grammar = await (options.load ?? loadGrammar)(row);
  } catch (err) {
    return { extraction: EMPTY, note: { code: 'extract_failed', message: `${row.language} grammar failed: ${(err as Error).message}` } };
  }
  try {
    const outcome = extractWithTreeSitter(grammar, text, byteLength, options.bounds ?? DEFAULT_BOUNDS);
    if (outcome.ok) return { extraction: outcome.extraction };
    return { extraction: EMPTY, note: { code: 'extract_skipped', message: `${row.language} definitions skipped: ${outcome.message}` } };
  } catch (err) {
    grammarThrew(grammar);
    return { extraction: EMPTY, note: { code: 'extract_failed', message: `${row.language} grammar threw: ${(err as Error).message}` } };
  }
}
