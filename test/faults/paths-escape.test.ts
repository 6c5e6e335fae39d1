/**
 * Paths that escape: every tool that takes a path (`ingest {path}`, `scan {paths}`,
 * `remember {files}`) is given `../`, absolute paths outside the roots, a symlink (and a
 * symlinked folder) pointing out, NUL bytes, backslashes and very long names. Each is refused
 * (or, for ingest, never reads anything it should not), and nothing outside the root is
 * opened: a FIFO outside the root would block any reader, and after every call we check that
 * nobody holds it open for reading. A FIFO inside the root (a mapped file swapped for one)
 * must not block the drain either.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants, mkdirSync, openSync, closeSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { makeTestBrains, sourceFiles } from '../helpers/brains.js';
import { makeTestSession } from '../helpers/session.js';
import { runTick } from '../../src/vigil/index.js';
import { readStatus } from '../../src/store/index.js';
import { recordFigures } from './fault-config.js';

/** True when some process has the FIFO open for reading (or is blocked opening it); releases it. */
function fifoHasReader(fifo: string): boolean {
  try {
    const fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw err;
  }
}

test('paths that escape the root are refused before anything is read; a FIFO never blocks a reader', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const outside = await makeTempDir('gardener-outside-');
  const t = await makeTestBrains();
  const fifo = join(outside.dir, 'secret.fifo');
  execFileSync('mkfifo', [fifo]);
  mkdirSync(join(outside.dir, 'dir'));
  execFileSync('mkfifo', [join(outside.dir, 'dir', 'inner.fifo')]);
  writeFileSync(join(outside.dir, 'plain.ts'), 'export const secret = 1;\n');
  symlinkSync(fifo, join(repo.dir, 'link-out.ts'));
  symlinkSync(join(outside.dir, 'dir'), join(repo.dir, 'dir-out'));
  symlinkSync(join(outside.dir, 'plain.ts'), join(repo.dir, 'plain-out.ts'));
  repo.commit('links');
  const { brain } = await t.brains.ensure(repo.dir);
  await runTick(brain, { inventory: true });
  const s = await makeTestSession(t.brains, repo.dir);
  let cases = 0;
  try {
    const rel = join('..', outside.dir.split('/').pop()!);
    const escaping = [
      `${rel}/secret.fifo`,
      `${rel}/plain.ts`,
      `src/../../${outside.dir.split('/').pop()}/secret.fifo`,
      fifo,
      join(outside.dir, 'plain.ts'),
      '/etc/passwd',
      'link-out.ts',
      'plain-out.ts',
      'dir-out/inner.fifo',
      'dir-out',
      'src/f0.ts\0../../secret.fifo',
      '\0',
      `..\\..\\${outside.dir.split('/').pop()}\\secret.fifo`,
      'src\\f0.ts',
      'a'.repeat(300) + '.ts',
      `src/${'deep/'.repeat(900)}x.ts`,
    ];
    const calls: [string, (p: string) => Record<string, unknown>][] = [
      ['scan', (p) => ({ paths: [p] })],
      ['remember', (p) => ({ text: 'a note', files: [p] })],
    ];
    const accepted: string[] = [];
    for (const [tool, args] of calls) {
      for (const p of escaping) {
        const r = await s.dispatch(tool, args(p));
        cases++;
        assert.equal(fifoHasReader(fifo), false, `${tool} ${JSON.stringify(p)} opened the FIFO outside the root`);
        assert.equal(fifoHasReader(join(outside.dir, 'dir', 'inner.fifo')), false, `${tool} ${JSON.stringify(p)} opened the inner FIFO`);
        if (!r.isError) accepted.push(`${tool} ${JSON.stringify(p.slice(0, 80))}`);
        else assert.match(r.value.error.message, /outside|NUL|backslash|too long|not/, `${tool} ${JSON.stringify(p.slice(0, 60))}: ${r.value.error.message}`);
      }
    }
    assert.deepEqual(accepted, [], 'every escaping path is refused');

    // ingest takes a folder: anything that is not a readable folder is refused without opening it.
    for (const p of [fifo, 'link-out.ts', 'dir-out/inner.fifo', 'src/f0.ts\0x', `..\\x`, 'a'.repeat(5000)]) {
      const r = await s.dispatch('ingest', { path: p });
      cases++;
      assert.equal(r.isError, true, `ingest ${JSON.stringify(p.slice(0, 60))} is refused`);
      assert.equal(fifoHasReader(fifo), false, `ingest ${JSON.stringify(p.slice(0, 60))} opened the FIFO`);
    }

    // The links in the root are never followed by a tick: none is in the map, no FIFO was opened.
    const status = readStatus(brain.reader);
    assert.equal(status.files, 3, 'only the three real files are mapped');
    assert.equal(fifoHasReader(fifo), false);
    recordFigures('paths-escape', { cases, refused: cases });
  } finally {
    await s.close();
    // Release anything a bug left blocked on a FIFO, so cleanup cannot hang.
    fifoHasReader(fifo);
    fifoHasReader(join(outside.dir, 'dir', 'inner.fifo'));
    await t.cleanup();
    await repo.cleanup();
    await outside.cleanup();
  }
});

test('a mapped file swapped for a FIFO leaves the map without the drain blocking on it', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(sourceFiles(3));
  const t = await makeTestBrains();
  const swapped = join(repo.dir, 'src/f1.ts');
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    rmSync(swapped);
    execFileSync('mkfifo', [swapped]);
    const s = await makeTestSession(t.brains, repo.dir);
    try {
      const r = await s.dispatch('scan', { paths: ['src/f1.ts'] });
      assert.equal(r.isError, undefined, JSON.stringify(r.value));
      assert.equal(fifoHasReader(swapped), false, 'nobody is blocked reading the FIFO');
      assert.equal(r.value.backlog_left, 0);
      assert.equal(readStatus(brain.reader).files, 2, 'the FIFO is not a file of the map');
    } finally {
      await s.close();
    }
  } finally {
    fifoHasReader(swapped);
    await t.cleanup();
    await repo.cleanup();
  }
});
