/**
 * delegate's answer is a fraction of its budget when it can be (issue 52): the first files come
 * with their lines and definitions, the files after them with only the definitions the task
 * matched and a few lines, and at most twenty files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMappedSession } from './helpers/session.js';
import { DETAILED_FILES, SYMBOLS_PER_FILE, TAIL_LINES, TAIL_SYMBOLS } from '../src/ranking/task-files.js';

/** A file with one definition the task names and many it does not. */
const module = (i: number) => [
  `export function rotateLogFile${i}(path: string) { return path; }`,
  ...Array.from({ length: 14 }, (_, k) => `export function helper${i}x${k}() { return ${k}; }`),
  '',
].join('\n');

test('past the first files, a file lists only what the task matched: the answer stays well within its budget', async () => {
  await withMappedSession(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`src/logs/rotate${i}.ts`, module(i)])), async (s) => {
    const d = await s.dispatch('delegate', { task: 'Rotate the log file when it grows past its size limit' });
    const files = d.value.files as { path: string; lines: number[]; symbols: { name: string }[] }[];
    assert.equal(files.length, 20, 'twenty files at most');
    for (const f of files.slice(0, DETAILED_FILES)) assert.equal(f.symbols.length, SYMBOLS_PER_FILE, `${f.path}: the first files show their definitions`);
    for (const f of files.slice(DETAILED_FILES)) {
      assert.ok(f.symbols.length <= TAIL_SYMBOLS && f.lines.length <= TAIL_LINES, `${f.path}: ${JSON.stringify(f)}`);
      assert.ok(f.symbols.every((sym) => sym.name.startsWith('rotateLogFile')), `${f.path}: only the matched definitions: ${JSON.stringify(f.symbols)}`);
    }
    assert.ok(d.value.tokens_used < 4000 / 2, `the answer costs ${d.value.tokens_used} tokens of 4000`);
  });
});
