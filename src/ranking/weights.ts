/**
 * Every number that shapes ranking, named, with the recall eval run that chose it
 * (`npm run eval:recall`, issue 7; runs are described in docs/recall.md). "eval A" is the
 * five-repository run before this module (delegate summed symbol hits).
 */

/** Most query terms kept from a long text: a paragraph's worth of distinct words. */
export const MAX_QUERY_TERMS = 40;
/** Terms at least this long match by prefix (completion → completions, config → configure). */
export const PREFIX_MIN_CHARS = 4;
/** Files fetched from the full-text index per query, then re-scored on path and symbol words. */
export const CANDIDATE_FILES = 150;
/** Files added as candidates for their path words alone, best path score first. */
export const PATH_CANDIDATE_FILES = 50;

/** Full-text words match their other forms found in the vocabulary (exact terms) instead of a prefix query. */
export const FTS_WORD_FORMS = true;
/** Most words in the full-text query (the rarest): each one costs a pass over its postings. */
export const MAX_FTS_TERMS = 12;
/** Words held by more files than this share are left out of the full-text query (idf ≈ 0, cost ≈ every file). */
export const COMMON_TERM_SHARE = 0.25;
/** …and by more than this many files: in a small brain every word is in a good share of it, and the query is cheap anyway. */
export const COMMON_TERM_MIN_FILES = 100;

/** A task word in the file's own name counts this many times one in its folders. */
export const NAME_WORD_FACTOR = 1;

/** Full-text column weights for bm25(fts, path, symbols, content). */
export const FTS_PATH_WEIGHT = 4;
export const FTS_SYMBOLS_WEIGHT = 2;
export const FTS_CONTENT_WEIGHT = 1;

/** Reciprocal-rank fusion constant: 60 is the value of Cormack et al.; smaller favours the head of each list. */
export const RRF_K = 10;
/** Weights of each ranked list in the fusion. */
export const TEXT_LIST_WEIGHT = 1;
export const PATH_LIST_WEIGHT = 1;
export const SYMBOL_LIST_WEIGHT = 1;
/** Files holding the identifiers the task names, and how many are fetched. */
export const NAMED_LIST_WEIGHT = 0.5;
export const NAMED_CANDIDATE_FILES = 30;
/** Files named by notes that match the task. */
export const NOTE_LIST_WEIGHT = 0.5;

/** Multipliers for files that are rarely where a change is made. */
export const GENERATED_FILE_FACTOR = 0.2;
export const TEST_FILE_FACTOR = 0.5;
export const DOC_FILE_FACTOR = 0.5;
