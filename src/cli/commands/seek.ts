/** `gardener seek <query>`: symbols first, then full text. Reads only; never ticks. */
import { seek as seekStore } from '../../store/index.js';
import { positiveInt, printJson, printLine } from '../output.js';
import { withBrains } from './with-brains.js';

export async function seek(query: string, opts: { root: string; limit: string; json?: boolean }): Promise<void> {
  const limit = positiveInt('--limit', opts.limit);
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const hits = seekStore(brain.reader, query, { limit }).map((h) => ({
      path: h.path,
      line: h.line,
      symbol: h.symbol,
      score: Math.round(h.score * 1000) / 1000,
    }));
    if (opts.json) return printJson(hits);
    if (hits.length === 0) return printLine(`no match for "${query}"`);
    for (const h of hits) printLine(`${h.path}:${h.line}${h.symbol ? `  ${h.symbol}` : ''}  (${h.score})`);
  });
}
