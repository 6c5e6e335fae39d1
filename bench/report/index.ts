/**
 * What the bench reports, in rooms: the JSON shape and how a run becomes it (shape.ts), the
 * targets judged on it (judge.ts), the table for people (text.ts) and docs/benchmarks.md
 * (markdown.ts, which scripts/update-bench-doc.mjs imports from dist), with one number format
 * (number-format.ts). A new bench case adds its fields to shape.ts, a target to judge.ts, and
 * a line or section to text.ts and markdown.ts.
 */
export type { BenchJson, BenchJsonMcp, BenchJsonOwner, BenchJsonRun, BenchTarget } from './shape.js';
export { toJson } from './shape.js';
export { WATCH_SAVE_SLACK_MS, judgeTargets } from './judge.js';
export { formatTable, formatText } from './text.js';
export { BENCH_DOC_ARGS, formatMarkdown } from './markdown.js';
