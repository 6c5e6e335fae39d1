/** `gardener seek <query>`: the one seek the `seek` tool runs (src/ranking/seek.ts). Reads only; never ticks. */
import { seek as seekCode } from '../../ranking/index.js';
import { positiveInt, printJson, printLine } from '../output.js';
import { withBrains } from './with-brains.js';

export async function seek(query: string, opts: { root: string; limit: string; json?: boolean }): Promise<void> {
  const limit = positiveInt('--limit', opts.limit);
  await withBrains(async (brains) => {
    const brain = brains.resolve(opts.root);
    const hits = seekCode(brain.reader, query, { limit }).map((h) => ({ path: h.path, line: h.line, symbol: h.symbol, score: h.score }));
    if (opts.json) return printJson(hits);
    if (hits.length === 0) return printLine(`no match for "${query}"`);
    for (const h of hits) printLine(`${h.path}:${h.line}${h.symbol ? `  ${h.symbol}` : ''}  (${h.score})`);
  });
}
