/**
 * Every number that shapes ranking, named, with the recall eval run that chose it
 * (`npm run eval:recall`, issue 7; the runs are listed in docs/recall.md under "How the
 * weights were chosen"). Runs are five repositories (hono, axios, httpx, chi, this project),
 * 30 sampled commits each (fewer here), seed 1; the numbers quoted are delegate's overall
 * hit@5 / MRR@10. Run A is before this module (delegate summed symbol hits): 0.60 / 0.39.
 * A difference of one task is 0.008 overall and 0.033 in one language: below that, a change
 * is noise, and a weight was kept at its simpler value.
 */

/** Most query terms kept from a long text: a paragraph's worth of distinct words (run B). */
export const MAX_QUERY_TERMS = 40;
/** Words at least this long match other forms (completion → completions). Run E1: 3 made no difference (0.75 / 0.61) and cost latency. */
export const PREFIX_MIN_CHARS = 4;
/** Files fetched from the full-text index per query, then re-scored on path and symbol words (run B: 150; run M: 80, same recall, cheaper). */
export const CANDIDATE_FILES = 80;
/** Files added as candidates for their path words alone, best path score first. Run D: 0.74 / 0.61, python 0.77 → 0.80. */
export const PATH_CANDIDATE_FILES = 50;

/**
 * Full-text words ask for their other forms as exact terms (route, routes, routed, routing)
 * instead of a prefix query. Run F (0.76 / 0.61) against F0 with prefix queries (0.76 / 0.60):
 * the same recall, and one 5000-file-brain query fell from 121 ms to 41 ms (a loaded machine).
 */
export const FTS_WORD_FORMS = true;
/** Most words in the full-text query (the rarest): each one costs a pass over its postings (run F; run K4 with 8: 0.74 / 0.58). */
export const MAX_FTS_TERMS = 12;
/** Words held by more files than this share are left out of the full-text query (idf ≈ 0, cost ≈ every file) (run F: 0.25; run M: 0.1, same recall; 0.05 was no faster). */
export const COMMON_TERM_SHARE = 0.1;
/** …and by more than this many files: in a small brain every word is in a good share of it, and the query is cheap anyway (run G). */
export const COMMON_TERM_MIN_FILES = 100;

/** A task word in the file's own name counts this many times one in its folders. Run N1: 1.5 lost two tasks (0.74 / 0.60). */
export const NAME_WORD_FACTOR = 1;

/** Full-text column weights for bm25(fts, path, symbols, content) (run B; path words got their own list in C). */
export const FTS_PATH_WEIGHT = 4;
export const FTS_SYMBOLS_WEIGHT = 2;
export const FTS_CONTENT_WEIGHT = 1;

/** Reciprocal-rank fusion constant (smaller favours the head of each list). Run E3: 30 gave 0.75 / 0.61 as 10 did; typescript lost a task. */
export const RRF_K = 10;
/** Weights of each ranked list in the fusion (run B: equal lists took hit@5 from 0.60 to 0.71; run T1: text 1.5 moved one task either way). */
export const TEXT_LIST_WEIGHT = 1;
/**
 * The text list's weight in a brain of at most SMALL_BRAIN_FILES files without history (issue
 * 18, few large files): there a project's logic sits in a few large files that only the full
 * text names. Run NH-sb2 (history off, 240 tasks): hit@1 145 → 152, hit@5 202 → 203, backbone
 * 27 → 28 of 30 (BM25 28). With history it costs (HL3-sb2: hit@1 162 → 154), so not there.
 */
export const SMALL_BRAIN_FILES = 150;
export const SMALL_BRAIN_TEXT_LIST_WEIGHT = 2;
export const PATH_LIST_WEIGHT = 1;
export const SYMBOL_LIST_WEIGHT = 1;
/** Files holding the identifiers the task names, and how many are fetched. Run H: 0.5 gave 0.75 / 0.62 (hit@1 0.46 → 0.50); run K1 with 1: 0.73 / 0.62. */
export const NAMED_LIST_WEIGHT = 0.5;
export const NAMED_CANDIDATE_FILES = 30;
/**
 * Files the best NEIGHBOUR_SOURCES files import (relative imports), as a list of their own.
 * Runs on 150 tasks (the own history had grown): without 0.78 / 0.63 (hit@1 0.51); 0.3: 0.79 /
 * 0.63 but hit@1 0.49; 0.15 (run NB): 0.80 / 0.63, hit@1 0.51, typescript hit@5 0.82 → 0.86.
 */
export const NEIGHBOUR_LIST_WEIGHT = 0.15;
export const NEIGHBOUR_SOURCES = 3;
/** Files named by notes that match the task. Not measured: the eval's brains hold no notes. */
export const NOTE_LIST_WEIGHT = 0.5;

/** Multipliers for files that are rarely where a change is made (runs C, D: tests 0.8 → 0.5 and docs 0.7 → 0.5 took python from 0.70 to 0.80). */
export const GENERATED_FILE_FACTOR = 0.2;
export const TEST_FILE_FACTOR = 0.5;
export const DOC_FILE_FACTOR = 0.5;
/** Data and settings files (JSON, YAML, TOML, lock files…). Run I2 (issue eval): 1 → 0.5 took Acc@5 from 0.652 to 0.660. */
export const DATA_FILE_FACTOR = 0.5;

/**
 * A packed file in a ratified room the task names (every word of the room's name is a task
 * word) has its score multiplied by this. Not chosen by an eval run: the eval's brains have no
 * skeleton. Large enough to lift a named room's file over an equal match elsewhere, small
 * enough that a much better match in another room still leads (issue 10).
 */
export const NAMED_ROOM_BOOST = 1.5;

/**
 * `seek` for a name or two (seek-names.ts): a definition hit scores at least 1, a full-text hit
 * below 1 (|bm25| / (1 + |bm25|), the column weights above), so definitions always lead, the
 * exact name before a prefix, an exported definition before an unexported one of the same name.
 * Only the order between the groups matters: these are ranks, not measured weights (the recall
 * eval's tasks are sentences, which rank by file; `npm run eval:symbols` checks the names: on this
 * project 461 of 486 ctags definitions found at file and line, the same before and after they moved here).
 */
export const EXACT_NAME_SCORE = 3;
export const PREFIX_NAME_SCORE = 2;
/** Below the gap between two groups (1), so it only orders hits within one. */
export const EXPORTED_NAME_BONUS = 0.1;
/** Files whose definitions are checked for a name query: NAME_CANDIDATES_PER_HIT per requested hit, up to NAME_CANDIDATE_FILES. */
export const NAME_CANDIDATES_PER_HIT = 3;
export const NAME_CANDIDATE_FILES = 200;
// History lists (history-lists.ts, issue 18): mined from the brain's git history up to the
// mapped commit; a brain without history gets none of them. Runs in docs/recall.md, on eight
// repositories (hono, axios, underscore, backbone, httpx, starlette, chi, this project), 240 tasks,
// seed 1, quoted as delegate's hit@1 / hit@5 (tasks of 240) / MRR: before
// history (run R8) 145 / 202 / 0.712; run HL2 (recency 0.3, co-change 0.3, messages 0.5)
// 157 / 210 / 0.753. Each list's part is an off run against HL2.

/**
 * Recency and churn: a file's newest commits counted, each halved every this many commits back.
 * Off (HL2-rec0): 156 / 206 / 0.751, recall@5 0.832 → 0.817; 0.6 (HL2-rec6): 158 / 208 / 0.756.
 */
export const RECENCY_LIST_WEIGHT = 0.3;
export const RECENT_TOUCHES = 50;
export const RECENCY_HALF_LIFE_COMMITS = 200;
/**
 * Co-change with the best CO_CHANGE_SOURCES candidates, over their newest CO_CHANGE_COMMITS
 * commits of at most CO_CHANGE_MAX_FILES files. Off (HL2-co0): 155 / 210 / 0.750, recall@5
 * 0.828; 0.6 (HL2-co6): 153 / 210 / 0.744, recall@5 0.835. A small part, kept for recall.
 */
export const CO_CHANGE_LIST_WEIGHT = 0.3;
export const CO_CHANGE_SOURCES = 3;
export const CO_CHANGE_COMMITS = 50;
export const CO_CHANGE_MAX_FILES = 20;
/** Most files the co-change list names (the best; each new one is a file row read and parsed). */
export const CO_CHANGE_FILES = 20;
/**
 * Files of the MESSAGE_COMMITS commits whose messages best match the task (commits of at most
 * MESSAGE_MAX_FILES files). Off (HL2-msg0): 153 / 209 / 0.740; 1 (HL2-msg1): 161 / 210 / 0.766
 * against HL2's 0.5.
 */
export const MESSAGE_LIST_WEIGHT = 1;
export const MESSAGE_COMMITS = 30;
export const MESSAGE_MAX_FILES = 20;
/** Most files the messages list names (the best). */
export const MESSAGE_FILES = 30;

// Issue clues (issue-clues.ts, clue-lists.ts; issue 52): lists of their own for a text that
// reads as an issue report. Chosen on `npm run eval:issues` (SWE-bench Multilingual, 250 tasks
// from 34 repositories; runs I0-I5 in docs/recall.md, "Real issues"), quoted as delegate's
// Acc@5. One task is 0.004; weights left at 1 unless a run, and the held-out learner
// (evals/issues/learn-weights.ts: repositories dealt into folds, weights learned on the others),
// agreed on another value. Each list's part is an ablation (re-fused from the run's lists).

/**
 * The paths the text names (a traceback's frames, `src/a.ts:12`, a file name in prose). Run I3:
 * without it 0.664 → 0.656; 2 chosen by the learner in 6 of 7 held-out folds (with the title
 * messages at 2: 0.684 → 0.688, Acc@1 unchanged, run I5).
 */
export const PATH_CLUE_LIST_WEIGHT = 2;
/** A bare file name clue counts only where at most this many files carry the name. */
export const PATH_CLUE_MAX_NAMESAKES = 3;
/** Files defining the names the text quotes, by the names' rarity among definitions (run I1: without it 0.648 → 0.624). */
export const DEFINES_LIST_WEIGHT = 1;
/** Files fetched for the defines list (best symbols-column bm25 first), then scored. */
export const DEFINES_CANDIDATE_FILES = 100;
/** A name defined in more than this share of the files (and more than DEFINES_COMMON_MIN_FILES) names nothing in particular. */
export const DEFINES_COMMON_SHARE = 0.02;
export const DEFINES_COMMON_MIN_FILES = 20;
/** A name declared in an interface (not implemented there) counts this share of one implemented. */
export const DECLARED_NAME_SHARE = 0.5;
/** A file's defines score is divided by 1 + DEFINES_SIZE_DAMPING × ln(1 + its definitions / DEFINES_TYPICAL_FILE_DEFS). */
export const DEFINES_SIZE_DAMPING = 0.5;
export const DEFINES_TYPICAL_FILE_DEFS = 20;
/** The title's words ranked alone: the report's own summary (run I1: without it 0.648 → 0.600, the largest part). */
export const TITLE_LIST_WEIGHT = 1;
export const TITLE_CANDIDATE_FILES = 50;
/**
 * Files of the past commits whose messages match an issue's title (history-lists.ts): a title
 * reads like a commit message. Run I3: without it 0.664 → 0.644; 2 (chosen 1.5-2 in the learner's
 * folds): 0.684, Acc@1 0.356 → 0.376.
 */
export const TITLE_MESSAGE_LIST_WEIGHT = 2;
/**
 * How much a word of an issue counts toward the query's terms (its MAX_QUERY_TERMS most counted
 * words), by where it stands: in the title, in prose, in a fenced block (a pasted log or program).
 */
export const TITLE_WORD_WEIGHT = 3;
export const BLOCK_WORD_WEIGHT = 0.5;
/** The title's words among the files' path words (the path list's scoring, the title alone). */
export const TITLE_PATH_LIST_WEIGHT = 1;
/** Files holding, word for word, phrases of the messages the text quotes (run I3: without it 0.664 → 0.652). */
export const MESSAGE_CLUE_LIST_WEIGHT = 1;
/** Most phrase queries per text, and most files a phrase may be in to count (past it, it names nothing). */
export const MESSAGE_PHRASES = 40;
export const MESSAGE_PHRASE_MAX_FILES = 20;
/** Names listed per file in the answer's clues (the rarest it defines). */
export const CLUE_NAMES_SHOWN = 4;
