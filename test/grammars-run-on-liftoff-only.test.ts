/**
 * Grammars run on V8's baseline WebAssembly compiler only, on every Node: parsing does not tier
 * them up. Measured on Node 24.21 before the law held: `--liftoff-only` set at run time (not on
 * the command line) drops its implied flags, so the hot lexers of C#, Kotlin and Ruby were
 * recompiled by TurboFan and 40 files of the bench's burst took the process's peak RSS 550 MB
 * higher; on Node 20 it stays about 60 MB higher. Bun runs JavaScriptCore, where none of this applies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { extractFile } from '../src/ingest/extraction.js';
import { generateTreeSitterSource, TREE_SITTER_BENCH_LANGUAGES } from '../bench/fixtures/tree-sitter-sources.js';

/** Well above the grammars' own cost (runtime, four grammars, parsing: about 60 MB), far below a tier-up's. */
const MAX_PEAK_RISE_MB = 200;
const FILES = 80;

const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const skip = (process.versions as Record<string, string | undefined>).bun !== undefined ? 'JavaScriptCore has no WebAssembly tiers to pin' : !existsSync('/proc/self/status') ? 'needs /proc' : false;

test('parsing the bench burst\'s languages does not tier their grammars up (peak memory stays bounded)', { skip }, async () => {
  const files = Array.from({ length: FILES }, (_, i) => {
    const lang = TREE_SITTER_BENCH_LANGUAGES[i % TREE_SITTER_BENCH_LANGUAGES.length]!;
    return { lang, text: generateTreeSitterSource(lang, 7000 + i, i) };
  });
  const before = peakMb();
  let definitions = 0;
  for (const f of files) {
    const r = await extractFile(f.lang, f.text, Buffer.byteLength(f.text));
    assert.equal(r.note, undefined);
    definitions += r.extraction.symbols.length;
  }
  assert.ok(definitions > FILES, `${definitions} definitions in ${FILES} files`);
  const rise = peakMb() - before;
  assert.ok(rise < MAX_PEAK_RISE_MB, `peak RSS rose ${rise.toFixed(0)} MB parsing ${FILES} files (bound ${MAX_PEAK_RISE_MB} MB)`);
});
