/** The tree-sitter path: grammar rows, the per-thread loader and the extractor. */
export { GRAMMARS, grammarRowOf, type GrammarRow } from './grammars.js';
export { loadGrammar, grammarThrew, grammarLoads, MAX_THROWS_PER_GRAMMAR, requestedGrammars, runtimeStarted, readQuery, treeSitterMemoryBytes, type LoadedGrammar } from './grammar-loader.js';
export {
  extractWithTreeSitter,
  MAX_REFERENCES_PER_FILE,
  TREE_SITTER_BUDGET_MS,
  TREE_SITTER_MAX_BYTES,
  type TreeSitterBounds,
  type TreeSitterOutcome,
} from './tree-sitter-extract.js';
