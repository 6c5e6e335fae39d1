/**
 * Extraction speed on one thread, side by side: for each of the six scanned languages, the line
 * scanner and the tree-sitter grammar on the same generated files (source-files.ts); for the
 * tree-sitter languages of the bench burst (tree-sitter-sources.ts), the grammar alone. Reports
 * files/s, MB/s and definitions found; the grammars are loaded and warmed before the clock runs.
 * This is the measurement behind "the scanners stay where they win" (docs/dependencies.md).
 *
 *   node dist/bench/extract-speed.js [files per language, default 200]
 */
import { extractDefinitions } from '../src/ingest/extract/index.js';
import { extractWithTreeSitter, grammarRowOf, loadGrammar, TREE_SITTER_BUDGET_MS, TREE_SITTER_MAX_BYTES } from '../src/ingest/tree-sitter/index.js';
import { generateSource, Rng, fileStem, seedOf, type BenchLanguage } from './fixtures/source-files.js';
import { generateTreeSitterSource, TREE_SITTER_BENCH_LANGUAGES } from './fixtures/tree-sitter-sources.js';

const SCANNED: readonly BenchLanguage[] = ['typescript', 'python', 'go', 'rust', 'java'];
const BOUNDS = { maxBytes: TREE_SITTER_MAX_BYTES, budgetMs: TREE_SITTER_BUDGET_MS };

export interface SpeedRow {
  language: string;
  path: 'scanner' | 'tree-sitter';
  files: number;
  mb: number;
  ms: number;
  filesPerS: number;
  mbPerS: number;
  definitions: number;
}

function row(language: string, path: SpeedRow['path'], files: string[], ms: number, definitions: number): SpeedRow {
  const mb = files.reduce((a, f) => a + Buffer.byteLength(f), 0) / (1 << 20);
  return { language, path, files: files.length, mb, ms, filesPerS: (files.length / ms) * 1000, mbPerS: (mb / ms) * 1000, definitions };
}

async function timeTreeSitter(language: string, files: string[]): Promise<SpeedRow> {
  const grammar = await loadGrammar(grammarRowOf(language, { scanned: true })!);
  const run = () => {
    let defs = 0;
    for (const f of files) {
      const out = extractWithTreeSitter(grammar, f, Buffer.byteLength(f), BOUNDS);
      if (!out.ok) throw new Error(`bench: ${language} extraction failed: ${out.message}`);
      defs += out.extraction.symbols.length;
    }
    return defs;
  };
  run(); // warm: JIT, the grammar's first parses
  const t0 = performance.now();
  const defs = run();
  return row(language, 'tree-sitter', files, performance.now() - t0, defs);
}

function timeScanner(language: string, files: string[]): SpeedRow {
  const run = () => files.reduce((n, f) => n + extractDefinitions(language, f).symbols.length, 0);
  run();
  const t0 = performance.now();
  const defs = run();
  return row(language, 'scanner', files, performance.now() - t0, defs);
}

export async function measureExtractSpeed(filesPerLanguage: number): Promise<SpeedRow[]> {
  const rows: SpeedRow[] = [];
  for (const lang of SCANNED) {
    const files = Array.from({ length: filesPerLanguage }, (_, i) => {
      const rng = new Rng(seedOf('speed', lang, i));
      return generateSource(lang, seedOf('speed-src', lang, i), fileStem(lang, rng));
    });
    rows.push(timeScanner(lang, files), await timeTreeSitter(lang, files));
  }
  for (const lang of TREE_SITTER_BENCH_LANGUAGES) {
    const files = Array.from({ length: filesPerLanguage }, (_, i) => generateTreeSitterSource(lang, seedOf('speed', lang, i), i));
    rows.push(await timeTreeSitter(lang, files));
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 200);
  const rows = await measureExtractSpeed(n);
  console.log('| language | path | files/s | MB/s | definitions per file |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.language} | ${r.path} | ${Math.round(r.filesPerS)} | ${r.mbPerS.toFixed(1)} | ${(r.definitions / r.files).toFixed(1)} |`);
}
