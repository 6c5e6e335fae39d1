/**
 * The file a team note is (docs/notes.md): Markdown with a front matter, one file per note
 * under the root's notes folder, named `<id>.md` so two people's notes never collide.
 *
 * ```
 * ---
 * id: 20261202-145000-3f9a2c1b
 * created: 2026-12-02T14:50:00.000Z
 * author: Ada Lovelace <ada@example.com>
 * tags: ["retry", "config"]
 * files: [{"path": "config/limits.ts", "hash": "1a2b3c4d5e6f7081"}]
 * definitions: [{"path": "config/limits.ts", "name": "RETRY_BUDGET", "line": 3, "hash": "1a2b3c4d5e6f7081"}]
 * ---
 * The retry budget lives in config/limits.ts; never hard-code it.
 * ```
 *
 * The front matter is a strict subset of YAML: one `key: value` per line, the value JSON (YAML's
 * flow style) or, for the plain strings (id, created, author), a bare scalar. A subset and not a
 * YAML library because what is read here comes from anyone who can push: a small grammar with a
 * line number for each refusal is easier to trust than a general one (anchors, tags, merges).
 * Parsing never throws: it answers the note or the first problem and its line.
 */

/** Largest note file read, in bytes: a note's text is at most 16 000 characters (MAX_NOTE_CHARS), ties add a little. */
export const MAX_TEAM_NOTE_FILE_BYTES = 256 * 1024;
/** Longest note text, in characters: the same bound `remember` puts on a note. */
export const MAX_TEAM_NOTE_CHARS = 16_000;
/** Where a root's team notes live, root-relative (detection lets this folder through: src/detect/skip-dirs.ts). */
export { DEFAULT_NOTES_DIR as DEFAULT_TEAM_NOTES_DIR } from '../detect/index.js';
/** An id is a file name: letters, digits, `-` and `_`. */
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Most ties one file may carry (as `remember`'s MAX_TIES, for files and definitions together twice). */
const MAX_FILE_TIES = 128;

export interface TeamTie {
  path: string;
  /** The content hash it was tied at; absent for a tie by path only (a secret-bearing file). */
  hash?: string;
  name?: string;
  line?: number;
}

export interface TeamNote {
  id: string;
  /** Epoch ms. */
  created: number;
  author?: string;
  tags: string[];
  pinned: boolean;
  files: TeamTie[];
  definitions: (TeamTie & { name: string })[];
  text: string;
}

export type ParseOutcome = { ok: true; note: TeamNote } | { ok: false; line: number; reason: string };

const fail = (line: number, reason: string): ParseOutcome => ({ ok: false, line, reason });

/** `<<<<<<< `, `=======`, `>>>>>>> `: git's conflict markers, at the start of a line. */
const CONFLICT_RE = /^(<{7}( |$)|={7}$|>{7}( |$)|\|{7}( |$))/;

/** A root-relative path that stays inside the root: no `..`, no absolute path, no backslash or NUL. */
export function isInsideRootPath(p: string): boolean {
  if (p.length === 0 || p.length > 4096 || p.startsWith('/') || p.includes('\\') || p.includes('\0') || /^[A-Za-z]:/.test(p)) return false;
  return p.split('/').every((seg) => seg !== '..' && seg !== '' && seg !== '.');
}

/** The note in a file's text; `fileName` (`<id>.md`) must agree with the id inside. */
export function parseTeamNote(text: string, fileName: string): ParseOutcome {
  const lines = text.split(/\r?\n/);
  const conflict = lines.findIndex((l) => CONFLICT_RE.test(l));
  if (conflict >= 0) return fail(conflict + 1, 'git conflict markers: resolve the merge conflict, then the note is read again');
  if (lines[0] !== '---') return fail(1, 'front matter missing: a note file starts with a line `---`');
  const end = lines.indexOf('---', 1);
  if (end < 0) return fail(1, 'front matter not closed: no second `---` line');
  const fields = new Map<string, { value: unknown; line: number }>();
  for (let i = 1; i < end; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const m = /^([a-z_]+):[ \t]*(.*)$/.exec(raw);
    if (!m) return fail(i + 1, `front matter line is not \`key: value\`: ${JSON.stringify(raw.slice(0, 80))}`);
    const [, key, rawValue] = m as unknown as [string, string, string];
    if (fields.has(key)) return fail(i + 1, `front matter names ${key} twice`);
    let value: unknown;
    try {
      value = JSON.parse(rawValue);
    } catch {
      if (/^[[{"]/.test(rawValue)) return fail(i + 1, `${key}: not valid JSON`);
      value = rawValue.trim();
    }
    fields.set(key, { value, line: i + 1 });
  }
  const str = (key: string): string | undefined => {
    const f = fields.get(key);
    return f === undefined ? undefined : typeof f.value === 'string' ? f.value : String(f.value);
  };
  const lineOf = (key: string) => fields.get(key)?.line ?? 1;

  const id = str('id');
  if (id === undefined) return fail(1, 'front matter has no id');
  if (!ID_RE.test(id)) return fail(lineOf('id'), `id ${JSON.stringify(id)} is not a file name (letters, digits, - and _)`);
  if (fileName !== `${id}.md`) return fail(lineOf('id'), `id ${id} does not match the file name ${fileName} (a note file is named <id>.md)`);
  const createdRaw = str('created');
  const created = createdRaw === undefined ? NaN : Date.parse(createdRaw);
  if (!Number.isFinite(created)) return fail(lineOf('created'), 'created is missing or not a date (ISO 8601, e.g. 2026-12-02T14:50:00Z)');

  const tagsField = fields.get('tags');
  const tags = tagsField?.value ?? [];
  if (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 64) || tags.length > 32) {
    return fail(tagsField!.line, 'tags must be a JSON array of at most 32 strings (1-64 characters)');
  }
  const pinnedField = fields.get('pinned');
  if (pinnedField !== undefined && typeof pinnedField.value !== 'boolean') return fail(pinnedField.line, 'pinned must be true or false');

  const ties = (key: 'files' | 'definitions'): TeamTie[] | ParseOutcome => {
    const f = fields.get(key);
    if (f === undefined) return [];
    if (!Array.isArray(f.value) || f.value.length > MAX_FILE_TIES) return fail(f.line, `${key} must be a JSON array of at most ${MAX_FILE_TIES} ties`);
    const out: TeamTie[] = [];
    for (const t of f.value as unknown[]) {
      if (typeof t !== 'object' || t === null) return fail(f.line, `${key}: each tie is an object {"path", "hash"${key === 'definitions' ? ', "name", "line"' : ''}}`);
      const { path, hash, name, line } = t as Record<string, unknown>;
      if (typeof path !== 'string') return fail(f.line, `${key}: a tie without a path`);
      if (!isInsideRootPath(path)) return fail(f.line, `${key}: ${JSON.stringify(path)} is outside the root (a tie names a root-relative path, without ..)`);
      if (hash !== undefined && (typeof hash !== 'string' || !/^[0-9a-f]{1,64}$/.test(hash))) return fail(f.line, `${key}: the hash of ${path} is not hexadecimal`);
      if (key === 'definitions' && (typeof name !== 'string' || name.length === 0 || name.length > 256)) return fail(f.line, `definitions: the tie to ${path} names no definition`);
      if (line !== undefined && !(Number.isInteger(line) && (line as number) > 0)) return fail(f.line, `${key}: the line of ${path} is not a positive integer`);
      out.push({ path, ...(hash === undefined ? {} : { hash: hash as string }), ...(name === undefined ? {} : { name: name as string }), ...(line === undefined ? {} : { line: line as number }) });
    }
    return out;
  };
  const files = ties('files');
  if (!Array.isArray(files)) return files;
  const definitions = ties('definitions');
  if (!Array.isArray(definitions)) return definitions;

  const body = lines.slice(end + 1).join('\n').trim();
  if (body.length === 0) return fail(end + 2, 'the note has no text after the front matter');
  if (body.length > MAX_TEAM_NOTE_CHARS) return fail(end + 2, `the note's text is over ${MAX_TEAM_NOTE_CHARS} characters`);
  const author = str('author');
  return {
    ok: true,
    note: {
      id,
      created,
      ...(author ? { author } : {}),
      tags: tags as string[],
      pinned: pinnedField?.value === true,
      files,
      definitions: definitions as (TeamTie & { name: string })[],
      text: body,
    },
  };
}

/** The file's text for a note (the inverse of parseTeamNote). */
export function formatTeamNote(note: TeamNote): string {
  const tie = (t: TeamTie) => JSON.stringify({ path: t.path, ...(t.name === undefined ? {} : { name: t.name }), ...(t.line === undefined ? {} : { line: t.line }), ...(t.hash === undefined ? {} : { hash: t.hash }) });
  const out = ['---', `id: ${note.id}`, `created: ${new Date(note.created).toISOString()}`];
  // A name with a character YAML would read otherwise is written as a JSON string.
  if (note.author) out.push(`author: ${/^[\w .@<>+-]+$/.test(note.author) && !/^[[{"]/.test(note.author) ? note.author : JSON.stringify(note.author)}`);
  if (note.tags.length > 0) out.push(`tags: ${JSON.stringify(note.tags)}`);
  if (note.pinned) out.push('pinned: true');
  if (note.files.length > 0) out.push(`files: [${note.files.map(tie).join(', ')}]`);
  if (note.definitions.length > 0) out.push(`definitions: [${note.definitions.map(tie).join(', ')}]`);
  out.push('---', note.text.trim(), '');
  return out.join('\n');
}

/** A new note id: sortable by time, with 32 random bits so two people writing at once never collide. */
export function newTeamNoteId(now: number, random: () => number = Math.random): string {
  const d = new Date(now).toISOString();
  const stamp = `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}-${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}`;
  const rand = Math.floor(random() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return `${stamp}-${rand}`;
}
