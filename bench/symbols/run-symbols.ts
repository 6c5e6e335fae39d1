/**
 * The symbols eval for one repository: ingest it into a throwaway brain (the real pipeline:
 * pool, hash+extract, writer), ask Universal Ctags for its definitions, and count how many a
 * `seek` for the name returns as a definition hit at the same file and line. Ctags tags in
 * files the map does not hold (skipped folders, oversized or binary files) are not counted.
 * A seeded sample per ctags language keeps big repositories quick.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Brains } from '../../src/brain/index.js';
import { seek } from '../../src/ranking/index.js';
import { runTick } from '../../src/vigil/index.js';
import { Rng } from '../fixtures/source-files.js';
import { ctagsDefinitions, type CtagsTag } from './ctags-tags.js';

/** Hits asked of `seek` per name: enough for a name defined in many files (`init`, `new`). */
export const SEEK_LIMIT = 100;

export interface LanguageScore {
  language: string;
  /** Counted ctags definitions in mapped files, and how many were sampled. */
  definitions: number;
  sampled: number;
  found: number;
  /** Sampled definitions with a hit of the same name in the same file at another line. */
  otherLine: number;
  /** A few misses, for reading (`path:line name kind`). */
  misses: string[];
}

export interface RepoScore {
  name: string;
  commit: string;
  files: number;
  languages: LanguageScore[];
}

export async function evalSymbols(repo: string, name: string, samplePerLanguage: number, seed: number, log: (line: string) => void): Promise<RepoScore> {
  const tmp = mkdtempSync(join(tmpdir(), 'gardener-symbols-'));
  const dir = join(tmp, basename(name));
  const brains = new Brains({ home: join(tmp, 'home'), maxThreads: 2 });
  try {
    execFileSync('git', ['clone', '-q', '--shared', resolve(repo), dir], { stdio: 'ignore' });
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    const { brain } = await brains.ensure(dir);
    const t0 = performance.now();
    const report = await runTick(brain, { inventory: true });
    if (report.backlogLeft > 0) throw new Error(`symbols: the tick left ${report.backlogLeft} paths in the backlog of ${name}`);
    const mapped = new Set(brain.reader.prepare('SELECT path FROM files').all<{ path: string }>().map((r) => r.path));
    log(`${name}@${commit}: ${mapped.size} files mapped in ${Math.round(performance.now() - t0)} ms`);
    const byLanguage = new Map<string, CtagsTag[]>();
    for (const t of ctagsDefinitions(dir)) {
      if (!mapped.has(t.path)) continue;
      let list = byLanguage.get(t.language);
      if (!list) byLanguage.set(t.language, (list = []));
      list.push(t);
    }
    const languages: LanguageScore[] = [];
    for (const [language, tags] of [...byLanguage].sort((a, b) => a[0].localeCompare(b[0]))) {
      const sample = sampleOf(tags, samplePerLanguage, seed);
      const score: LanguageScore = { language, definitions: tags.length, sampled: sample.length, found: 0, otherLine: 0, misses: [] };
      for (const t of sample) {
        const hits = seek(brain.reader, t.lookup, { limit: SEEK_LIMIT }).filter((h) => h.symbol === t.lookup && h.path === t.path);
        if (hits.some((h) => h.line === t.line)) score.found++;
        else {
          if (hits.length > 0) score.otherLine++;
          if (score.misses.length < 8) score.misses.push(`${t.path}:${t.line} ${t.name} ${t.kind}${hits.length ? ` (seen at ${hits.map((h) => h.line).join(',')})` : ''}`);
        }
      }
      languages.push(score);
    }
    return { name, commit, files: mapped.size, languages };
  } finally {
    await brains.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Up to `n` of `items`, the same ones for the same seed (a seeded Fisher–Yates prefix). */
function sampleOf<T>(items: readonly T[], n: number, seed: number): T[] {
  const a = [...items];
  const rng = new Rng(seed);
  const k = Math.min(n, a.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng.next() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, k);
}
