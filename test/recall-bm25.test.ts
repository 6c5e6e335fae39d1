import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bm25Doc, rankBm25 } from '../bench/recall/bm25.js';
import { identifierWords } from '../bench/recall/identifier-words.js';
import { scoreRanking } from '../bench/recall/metrics.js';

test('identifiers are split on camelCase, acronyms, snake_case and punctuation', () => {
  assert.deepEqual(identifierWords('parseHTTPConfig zsh_completions.go v2Api'), ['parse', 'http', 'config', 'zsh', 'completions', 'go', 'v2', 'api']);
  assert.deepEqual(identifierWords('a b: C'), [], 'one-letter pieces carry nothing');
});

test('BM25 scores match scores computed by hand (k1 = 1.2, b = 0.75, Lucene idf)', () => {
  // d1 = {ts, parse, config×2} (4 words), d2 = {ts, hello, world} (3), d3 = {go, config, loader} (3); avgdl = 10/3.
  const docs = [bm25Doc('d1', 'a.ts', 'parseConfig config'), bm25Doc('d2', 'b.ts', 'hello world'), bm25Doc('d3', 'c.go', 'config loader')];
  // config: df 2, idf ln(1 + 1.5/2.5) = ln 1.6.  d1: 2·2.2 / (2 + 1.2·(0.25 + 0.75·4·3/10)) · ln 1.6
  const config = rankBm25(docs, 'config');
  assert.deepEqual(config.map((h) => h.id), ['d1', 'd3']);
  assert.ok(Math.abs(config[0]!.score - 0.6118390) < 1e-6, `d1 ${config[0]!.score}`);
  assert.ok(Math.abs(config[1]!.score - 0.4900512) < 1e-6, `d3 ${config[1]!.score}`);
  // hello: df 1, idf ln(1 + 2.5/1.5); d2: 2.2 / (1 + 1.2·0.925) · idf
  const both = rankBm25(docs, 'Hello, config!');
  assert.deepEqual(both.map((h) => h.id), ['d2', 'd1', 'd3']);
  assert.ok(Math.abs(both[0]!.score - 1.0226656) < 1e-6, `d2 ${both[0]!.score}`);
  assert.deepEqual(rankBm25(docs, 'nothing matches'), []);
});

test('metrics: hit@1, hit@5, recall@5 and reciprocal rank of a ranked list', () => {
  const answer = new Set(['b', 'z']);
  assert.deepEqual(scoreRanking(['a', 'b', 'a', 'c'], answer), { hit1: 0, hit5: 1, recall5: 0.5, rr: 0.5 });
  assert.deepEqual(scoreRanking(['z', 'b'], answer), { hit1: 1, hit5: 1, recall5: 1, rr: 1 });
  assert.deepEqual(scoreRanking(['1', '2', '3', '4', '5', 'b'], answer), { hit1: 0, hit5: 0, recall5: 0, rr: 1 / 6 });
  assert.deepEqual(scoreRanking([], answer), { hit1: 0, hit5: 0, recall5: 0, rr: 0 });
});
