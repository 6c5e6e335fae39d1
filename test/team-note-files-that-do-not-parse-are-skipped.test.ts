/**
 * Bad team note files (issue 30): each is an alert naming the file and the line, skipped, and
 * never fails a tick; a good note beside them is read. A note holding a token is refused for
 * team scope with an error naming what and where, and nothing is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withMappedSession, type TestSession } from './helpers/session.js';
import { MAX_TEAM_NOTE_FILE_BYTES, parseTeamNote, teamNoteFileFor } from '../src/store/index.js';

const ok = (r: { isError?: boolean; value: unknown }) => assert.ok(!r.isError, JSON.stringify(r.value));
const DIR = '.gardener/notes';
const good = (id: string, extra = '') => `---\nid: ${id}\ncreated: 2026-12-01T10:00:00Z\n${extra}---\nthe good note ${id}\n`;

type Alert = { code: string; message: string; path: string | null };
const skipped = async (s: TestSession): Promise<Alert[]> => ((await s.dispatch('alerts_list')).value.alerts as Alert[]).filter((a) => a.code === 'team_note_skipped');
const noteTexts = async (s: TestSession): Promise<string[]> => ((await s.dispatch('boot_memory')).value.notes as { text: string }[]).map((n) => n.text);

test('every bad note file is an alert naming the file and line, is skipped, and the good note beside them is read', { timeout: 120_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n' }, async (s, repo) => {
    repo.write(`${DIR}/good-1.md`, good('good-1'));
    repo.write(`${DIR}/no-front.md`, 'just text, no front matter\n');
    repo.write(`${DIR}/unclosed.md`, '---\nid: unclosed\ncreated: 2026-12-01T10:00:00Z\nthe text\n');
    repo.write(`${DIR}/bad-json.md`, '---\nid: bad-json\ncreated: 2026-12-01T10:00:00Z\ntags: ["a", \n---\ntext\n');
    repo.write(`${DIR}/bad-line.md`, '---\nid: bad-line\nthis is not a key\n---\ntext\n');
    repo.write(`${DIR}/no-date.md`, '---\nid: no-date\n---\ntext\n');
    repo.write(`${DIR}/wrong-name.md`, good('other-id'));
    repo.write(`${DIR}/outside.md`, good('outside', 'files: [{"path": "../../etc/passwd", "hash": "00"}]\n'));
    repo.write(`${DIR}/absolute.md`, good('absolute', 'definitions: [{"path": "/etc/passwd", "name": "root"}]\n'));
    repo.write(`${DIR}/conflict.md`, '---\nid: conflict\ncreated: 2026-12-01T10:00:00Z\n---\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> branch\n');
    repo.write(`${DIR}/picture.md`, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]));
    repo.write(`${DIR}/huge.md`, `---\nid: huge\ncreated: 2026-12-01T10:00:00Z\n---\n${'x'.repeat(10 * 1024 * 1024)}\n`);
    const scan = await s.dispatch('scan');
    ok(scan);
    const alerts = await skipped(s);
    const byFile = new Map(alerts.map((a) => [a.path, a.message]));
    const expect: Record<string, RegExp> = {
      'no-front.md': /:1: front matter missing/,
      'unclosed.md': /:1: front matter not closed/,
      'bad-json.md': /:4: tags: not valid JSON/,
      'bad-line.md': /:3: front matter line is not `key: value`/,
      'no-date.md': /:1: created is missing/,
      'wrong-name.md': /:2: id other-id does not match the file name wrong-name\.md/,
      'outside.md': /:4: files: "\.\.\/\.\.\/etc\/passwd" is outside the root/,
      'absolute.md': /:4: definitions: "\/etc\/passwd" is outside the root/,
      'conflict.md': /:5: git conflict markers/,
      'picture.md': /:1: a binary file is not a note/,
      'huge.md': new RegExp(`:1: a note file is at most ${MAX_TEAM_NOTE_FILE_BYTES} bytes`),
    };
    for (const [name, re] of Object.entries(expect)) {
      const message = byFile.get(`${DIR}/${name}`);
      assert.ok(message, `an alert for ${name}: ${JSON.stringify(alerts)}`);
      assert.match(message, re, name);
      assert.ok(message.startsWith(`${DIR}/${name}:`), `the alert names the file: ${message}`);
    }
    assert.deepEqual(await noteTexts(s), ['the good note good-1'], 'only the good note is read');
  });
});

test('a note read from a file stays as it was while its file has conflict markers, and is read again once resolved', { timeout: 120_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n' }, async (s, repo) => {
    repo.write(`${DIR}/n1.md`, good('n1'));
    ok(await s.dispatch('scan'));
    assert.deepEqual(await noteTexts(s), ['the good note n1']);
    repo.write(`${DIR}/n1.md`, '---\nid: n1\ncreated: 2026-12-01T10:00:00Z\n---\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> b\n');
    ok(await s.dispatch('scan'));
    assert.deepEqual(await noteTexts(s), ['the good note n1'], 'the conflicted file is skipped; the note is not lost');
    assert.equal((await skipped(s)).length, 1);
    repo.write(`${DIR}/n1.md`, '---\nid: n1\ncreated: 2026-12-01T10:00:00Z\n---\nresolved text\n');
    ok(await s.dispatch('scan'));
    assert.deepEqual(await noteTexts(s), ['resolved text']);
  });
});

test('a note holding a token is refused for team scope, naming what and where, and nothing is written', { timeout: 120_000 }, async () => {
  await withMappedSession({ 'src/a.ts': 'export const a = 1;\n' }, async (s, repo) => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;
    const r = await s.dispatch('remember', { text: `deploys use\nthe token ${token} for CI`, scope: 'team' });
    assert.equal(r.isError, true, JSON.stringify(r.value));
    assert.equal(r.value.error.code, 'GDN_NOTE_SECRET');
    assert.match(r.value.error.message, /github-token/);
    assert.match(r.value.error.message, /line 2/);
    assert.ok(!r.value.error.message.includes(token), 'the error never repeats the secret');
    assert.equal(existsSync(join(repo.dir, DIR)) ? readdirSync(join(repo.dir, DIR)).length : 0, 0, 'no file written');
    assert.deepEqual(await noteTexts(s), [], 'no note kept either');
    const priv = await s.dispatch('remember', { text: `the token ${token}` });
    ok(priv);
  });
});

test('a tie to a secret-bearing file is kept by path only in the file; other ties keep their hash', () => {
  const draft = { text: 'the env holds the DB url', tags: [], pinned: false, created: Date.parse('2026-12-01T10:00:00Z'), ties: [{ rootId: 1, path: '.env', hash: 'abcdef0123456789' }, { rootId: 1, path: 'src/db.ts', hash: '0123456789abcdef', name: 'connect', line: 3 }] };
  const { text } = teamNoteFileFor(draft, 1, 'x1');
  assert.ok(!text.includes('abcdef0123456789'), text);
  const back = parseTeamNote(text, 'x1.md');
  assert.ok(back.ok);
  assert.deepEqual(back.note.files, [{ path: '.env' }]);
  assert.deepEqual(back.note.definitions, [{ path: 'src/db.ts', name: 'connect', line: 3, hash: '0123456789abcdef' }]);
});
