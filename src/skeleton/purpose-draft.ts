/**
 * Drafted purposes for proposed rooms, marked `draft: ` until someone confirms them: the first
 * prose line of a README, or a package.json description, directly in the room's folder; else
 * the room's size, main language and the exports of its most-imported files.
 */
import { posix } from 'node:path';
import type { Database } from '../store/index.js';
import { exportedNames, type CodeGraph } from './code-graph.js';
import { MAX_PURPOSE_CHARS } from './rooms.js';
import type { Unit } from './candidate.js';

const parentOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf('/')));

export interface CandidateOptions {
  /** Reads a root-relative text file (README, package.json) for drafting purposes; null when absent. */
  readText?: (path: string) => string | null;
}

export function draftPurpose(db: Database, u: Unit, graph: CodeGraph, readText: CandidateOptions['readText']): string {
  const clip = (s: string) => (s.length > MAX_PURPOSE_CHARS - 7 ? `${s.slice(0, MAX_PURPOSE_CHARS - 8)}…` : s);
  if (readText && !u.direct) {
    for (const f of u.files.filter((p) => parentOf(p) === u.folder).sort()) {
      const name = posix.basename(f).toLowerCase();
      const text = name === 'package.json' || /^readme(\.\w+)?$/.test(name) ? readText(f) : null;
      const line = text === null ? null : name === 'package.json' ? packageDescription(text) : readmeLine(text);
      if (line) return `draft: ${clip(line)}`;
    }
  }
  const langs = new Map<string, number>();
  for (const f of u.files) {
    const l = graph.byPath.get(f)?.language ?? 'other';
    langs.set(l, (langs.get(l) ?? 0) + 1);
  }
  const lang = [...langs.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const top = [...u.files].sort((a, b) => (graph.importedBy.get(b) ?? 0) - (graph.importedBy.get(a) ?? 0) || a.localeCompare(b)).slice(0, 2);
  const names = [...new Set(top.flatMap((f) => exportedNames(db, graph.byPath.get(f)!, 3)))].slice(0, 4);
  return clip(`draft: ${u.files.length} ${lang} file${u.files.length === 1 ? '' : 's'}${names.length ? `; exports ${names.join(', ')}` : ''}`);
}

function readmeLine(text: string): string | null {
  for (const raw of text.split('\n').slice(0, 40)) {
    const line = raw.trim();
    if (line && !/^(#|!\[|\[!|<|```|---|===|\|)/.test(line)) return line.replace(/[*_`]/g, '');
  }
  return null;
}

function packageDescription(text: string): string | null {
  try {
    const d = (JSON.parse(text) as { description?: unknown }).description;
    return typeof d === 'string' && d.trim() ? d.trim().replace(/[\r\n]+/g, ' ') : null;
  } catch {
    return null;
  }
}

