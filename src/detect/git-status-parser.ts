/**
 * Parsers for the three `-z` outputs the git backend reads. Records are split on NUL bytes as
 * Buffers and each path is decoded with decodePath, so spaces, newlines and non-UTF-8 bytes
 * survive exactly. Paths come back as git printed them (relative to the repository top for
 * status, to the working folder for ls-files and `diff --relative`); callers re-base them.
 */
import { GitError } from '../errors.js';
import { decodePath } from '../paths/path-bytes.js';

/** What a status or diff listing says about paths. */
export interface GitPathChanges {
  /** Paths that exist or may exist now: modified, added, type-changed, unmerged, untracked, rename targets. */
  changed: string[];
  /** Sources of renames and copies (a rename's source is gone; a copy's is re-checked anyway). */
  renamedFrom: string[];
  /** Paths reported deleted (in the index or the work tree). */
  deleted: string[];
}

const NUL = 0x00;
const SPACE = 0x20;

/** Splits NUL-terminated records without copying; a trailing empty record is dropped. */
export function splitNul(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (;;) {
    const end = buf.indexOf(NUL, start);
    if (end === -1) {
      if (start < buf.length) out.push(buf.subarray(start));
      return out;
    }
    out.push(buf.subarray(start, end));
    start = end + 1;
  }
}

/** The bytes after the `n`-th space of a record: the path, which may itself hold spaces. */
function afterSpaces(record: Buffer, n: number): Buffer {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(SPACE, at + 1);
    if (at === -1) throw new GitError(`unexpected git status record: ${JSON.stringify(record.toString('latin1'))}`);
  }
  return record.subarray(at + 1);
}

/**
 * Parses `git status --porcelain=v2 -z` output. Record kinds: `1` ordinary (path after 8
 * fields), `2` rename or copy (path after 9 fields, then the source as the next NUL record),
 * `u` unmerged (path after 10 fields), `?` untracked; `!` ignored and `#` headers are skipped.
 */
export function parseStatusV2(out: Buffer): GitPathChanges {
  const result: GitPathChanges = { changed: [], renamedFrom: [], deleted: [] };
  const records = splitNul(out);
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    if (rec.length < 2 || rec[1] !== SPACE) {
      if (rec.length === 0) continue;
      throw new GitError(`unexpected git status record: ${JSON.stringify(rec.toString('latin1'))}`);
    }
    switch (String.fromCharCode(rec[0]!)) {
      case '1': {
        const xy = rec.subarray(2, 4).toString('latin1');
        const path = decodePath(afterSpaces(rec, 8));
        (xy.includes('D') ? result.deleted : result.changed).push(path);
        break;
      }
      case '2': {
        result.changed.push(decodePath(afterSpaces(rec, 9)));
        const orig = records[++i];
        if (orig === undefined) throw new GitError('git status rename record without its source path');
        result.renamedFrom.push(decodePath(orig));
        break;
      }
      case 'u':
        result.changed.push(decodePath(afterSpaces(rec, 10)));
        break;
      case '?':
        result.changed.push(decodePath(rec.subarray(2)));
        break;
      case '!':
      case '#':
        break;
      default:
        throw new GitError(`unexpected git status record: ${JSON.stringify(rec.toString('latin1'))}`);
    }
  }
  return result;
}

/**
 * Parses `git diff --name-status -z A B`: a status record (`M`, `A`, `D`, `T`, `U`, `X`, or
 * `R<score>`/`C<score>`), then one path, or two (source, destination) for R and C.
 */
export function parseDiffNameStatus(out: Buffer): GitPathChanges {
  const result: GitPathChanges = { changed: [], renamedFrom: [], deleted: [] };
  const records = splitNul(out);
  let i = 0;
  const next = (): Buffer => {
    const rec = records[i++];
    if (rec === undefined) throw new GitError('git diff --name-status output ended inside a record');
    return rec;
  };
  while (i < records.length) {
    const status = next().toString('latin1');
    if (status === '') continue;
    const letter = status[0];
    if (letter === 'R' || letter === 'C') {
      result.renamedFrom.push(decodePath(next()));
      result.changed.push(decodePath(next()));
    } else if (letter === 'D') {
      result.deleted.push(decodePath(next()));
    } else if (letter !== undefined && 'AMTUX'.includes(letter)) {
      result.changed.push(decodePath(next()));
    } else {
      throw new GitError(`unexpected git diff status ${JSON.stringify(status)}`);
    }
  }
  return result;
}

/** Parses `git ls-files -z`: one path per record; an unmerged path listed per stage appears once. */
export function parseLsFiles(out: Buffer): string[] {
  const seen = new Set<string>();
  for (const rec of splitNul(out)) {
    if (rec.length > 0) seen.add(decodePath(rec));
  }
  return [...seen];
}
