/**
 * The one `seek`: the MCP tool, REST (through the same tool), the CLI's `gardener seek` and the
 * library's exported `seek` all call this, so one query gets one ranked answer whichever way it
 * is asked. A text of three words or more ranks files as `delegate` does (task-files.ts); a name
 * or two keeps the exact-definition-first order (seek-names.ts).
 */
import type { Database } from '../store/index.js';
import { seekNames } from './seek-names.js';
import { isTextQuery, seekText, type TextHit } from './task-files.js';

export interface SeekOptions {
  /** Most hits to return. @default DEFAULT_SEEK_LIMIT */
  limit?: number;
}

/**
 * One hit: a definition (symbol and kind set) or a line of text (both null); `score` is higher
 * for better, rounded to 3 decimals, comparable within one answer only. The same shape as a
 * text hit of the file ranking, which is where a sentence's hits come from.
 */
export type SeekHit = TextHit;

export const DEFAULT_SEEK_LIMIT = 20;

const round = (n: number) => Math.round(n * 1000) / 1000;

export function seek(db: Database, query: string, options: SeekOptions = {}): SeekHit[] {
  const limit = options.limit ?? DEFAULT_SEEK_LIMIT;
  if (isTextQuery(query)) return seekText(db, query, limit);
  return seekNames(db, query, limit).map((h) => ({ ...h, score: round(h.score) }));
}
