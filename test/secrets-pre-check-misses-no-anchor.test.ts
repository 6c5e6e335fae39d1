/**
 * The redaction's pre-check (src/ingest/secrets/anchor-probe.ts) decides which token patterns
 * run on a text, so a pattern it leaves out is a secret left in the map. It must say yes for
 * every pattern one of whose anchors is in the text, wherever the anchor sits (first, last, on
 * top of look-alikes of its pivot character, beside non-ASCII text), and a run anchor is found
 * at every offset. Texts are assembled at run time from the anchors themselves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anchorProbe, TOKEN_PATTERNS, type RunAnchor, type TokenPattern } from '../src/ingest/secrets/index.js';

const probe = anchorProbe(TOKEN_PATTERNS);

/** What the pre-check stands for: the pattern has an anchor in the text. */
function holdsAnchor(text: string, pattern: TokenPattern): boolean {
  return pattern.anchors.some((a) => (typeof a === 'string' ? text.includes(a) : new RegExp(`[${escapeClass(a.chars)}]{${a.length}}`).test(text)));
}
const escapeClass = (chars: string) => chars.replace(/[\]\\^-]/g, '\\$&');

const literals = TOKEN_PATTERNS.flatMap((p) => p.anchors.filter((a): a is string => typeof a === 'string'));
const runs = TOKEN_PATTERNS.flatMap((p) => p.anchors.filter((a): a is RunAnchor => typeof a !== 'string'));

/** Filler made of the anchors' own characters, so every pivot has false hits to step over. */
const noise = (n: number, seed: number) => {
  const pool = literals.map((a) => a.slice(1)).join('') + ' é\n';
  let out = '';
  for (let i = 0, x = seed; out.length < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += pool[x % pool.length];
  }
  return out;
};

test('every literal anchor lets its patterns run, wherever it sits in the text', () => {
  for (const pattern of TOKEN_PATTERNS) {
    for (const anchor of pattern.anchors) {
      if (typeof anchor !== 'string') continue;
      for (const text of [anchor, `${anchor}${noise(300, 1)}`, `${noise(300, 2)}${anchor}`, `${noise(150, 3)}${anchor}${noise(150, 4)}`, `ünïcödé ${anchor} ✓`]) {
        const found = probe(text);
        assert.ok(found !== null && found[TOKEN_PATTERNS.indexOf(pattern)], `${pattern.id}: anchor ${JSON.stringify(anchor)} in ${JSON.stringify(text.slice(0, 60))}…`);
      }
    }
  }
});

test('a run anchor is found at every offset, and one character short it is not', () => {
  assert.ok(runs.length > 0);
  for (const pattern of TOKEN_PATTERNS) {
    for (const anchor of pattern.anchors) {
      if (typeof anchor === 'string') continue;
      const run = Array.from({ length: anchor.length }, (_, i) => anchor.chars[(i * 7) % anchor.chars.length]).join('');
      for (let offset = 0; offset <= 2 * anchor.length; offset++) {
        const before = ' x'.repeat(offset).slice(0, offset);
        for (const text of [before + run, `${before}${run} tail`, `${before}${run}${run.slice(0, 5)}`]) {
          const found = probe(text);
          assert.ok(found !== null && found[TOKEN_PATTERNS.indexOf(pattern)], `${pattern.id}: a run of ${anchor.length} at offset ${offset}`);
        }
        const short = probe(`${before}${run.slice(1)} ${run.slice(2)}`);
        assert.ok(short === null || !short[TOKEN_PATTERNS.indexOf(pattern)], `${pattern.id}: runs of ${anchor.length - 1} are not one of ${anchor.length}`);
      }
    }
  }
});

test('on mixed texts the pre-check lets run every pattern whose anchor is there', () => {
  for (let seed = 1; seed <= 400; seed++) {
    let text = noise(200 + (seed % 7) * 90, seed);
    // Some texts get a few anchors and runs spliced in at seeded places.
    for (let k = 0; k < seed % 4; k++) {
      const anchor = seed % 5 === 0 && runs.length > 0 ? '0123456789abcdef'.repeat(4).slice(0, runs[0]!.length + (k % 2)) : literals[(seed * 31 + k * 17) % literals.length]!;
      const at = (seed * 131 + k * 71) % (text.length + 1);
      text = text.slice(0, at) + anchor + text.slice(at);
    }
    const found = probe(text);
    for (const [k, pattern] of TOKEN_PATTERNS.entries()) {
      if (holdsAnchor(text, pattern)) assert.ok(found !== null && found[k], `seed ${seed}: ${pattern.id} must run`);
    }
  }
});
