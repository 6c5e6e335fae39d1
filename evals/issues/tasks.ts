/**
 * Issue tasks in the SWE-bench row format, read from a file the user names: JSON Lines, a JSON
 * array, or a parquet file (the datasets' own format, decoded by hyparquet, a pure-JS reader).
 * A row needs `repo` (`owner/name`), `instance_id`, `base_commit`, `problem_statement` and
 * `patch`; its gold files are the source files the patch changes that already exist at the base
 * commit (not tests, docs or non-code), since an issue is localised to where the fix goes.
 * Nothing here knows any dataset: the rows are the user's.
 */
import { readFileSync } from 'node:fs';
import { languageOf, type Language } from '../../src/ingest/language.js';
import { UsageError } from '../../bench/recall/eval-args.js';

export interface IssueTask {
  id: string;
  repo: string;
  base: string;
  /** The issue text as filed: the query. */
  text: string;
  /** Every path the patch changes, with `added` for a file the patch creates. */
  changed: { path: string; added: boolean }[];
}

/** Languages whose files are code a fix can be localised to (markup, data and config are not). */
const NON_CODE: ReadonlySet<Language> = new Set(['markdown', 'json', 'yaml', 'toml', 'css', 'html']);

const TEST_OR_DOC: readonly RegExp[] = [
  /(^|\/)[_.]?(tests?|__tests__|spec|specs|testing|testdata|test-data|e2e|__mocks__|fixtures?|__fixtures__|snapshots?|__snapshots__)\//,
  /\.(test|spec|bench)\.[^/]+$/,
  /_test\.(go|rb|py|exs?)$/,
  /_spec\.rb$/,
  /(^|\/)(test_[^/]*|conftest)\.py$/,
  /(^|\/)[^/]*Tests?\.(java|kt|php|cs)$/,
  /(^|\/)[_.]?(docs?|documentation|website|examples?|samples?|benches|benchmarks?)\//,
  // a tool's settings (`.eslintrc.cjs`), not the project's code
  /(^|\/)\.[^/]+$/,
];

/** A file of code in a language Gardener maps (not markup, data or settings). */
export function isCodePath(path: string): boolean {
  const lang = languageOf(path);
  return lang !== null && !NON_CODE.has(lang);
}

/** A changed path a fix is localised to: code of a language Gardener maps, not a test, doc or example. */
export function isGoldPath(path: string): boolean {
  return isCodePath(path) && !TEST_OR_DOC.some((re) => re.test(path.toLowerCase()));
}

/** The paths a unified diff changes, in order, with whether each is created by it. */
export function changedPaths(patch: string): { path: string; added: boolean }[] {
  const out: { path: string; added: boolean }[] = [];
  const blocks = patch.split(/^diff --git /m).slice(1);
  for (const block of blocks) {
    const head = /^a\/(.+?) b\/(.+)$/m.exec(block);
    if (!head) continue;
    const added = /^new file mode /m.test(block.slice(0, block.indexOf('\n@@') >= 0 ? block.indexOf('\n@@') : block.length));
    const deleted = /^deleted file mode /m.test(block.slice(0, block.indexOf('\n@@') >= 0 ? block.indexOf('\n@@') : block.length));
    if (deleted) continue;
    out.push({ path: head[2]!, added });
  }
  return out;
}

/** Gold files of a task: its changed code paths that existed before the fix. */
export function goldFiles(task: IssueTask): string[] {
  return [...new Set(task.changed.filter((c) => !c.added && isGoldPath(c.path)).map((c) => c.path))];
}

const REQUIRED = ['repo', 'instance_id', 'base_commit', 'problem_statement', 'patch'] as const;

function toTask(row: Record<string, unknown>, where: string): IssueTask {
  for (const k of REQUIRED) {
    if (typeof row[k] !== 'string' || (row[k] as string).length === 0) throw new UsageError(`${where}: field "${k}" is missing or not a string (rows are SWE-bench rows: ${REQUIRED.join(', ')})`);
  }
  const repo = row.repo as string;
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new UsageError(`${where}: repo "${repo}" is not owner/name`);
  if (!/^[0-9a-f]{7,40}$/.test(row.base_commit as string)) throw new UsageError(`${where}: base_commit "${String(row.base_commit)}" is not a commit id`);
  return { id: row.instance_id as string, repo, base: row.base_commit as string, text: row.problem_statement as string, changed: changedPaths(row.patch as string) };
}

async function parquetRows(path: string): Promise<Record<string, unknown>[]> {
  let hyparquet: typeof import('hyparquet');
  try {
    hyparquet = await import('hyparquet');
  } catch {
    throw new UsageError(`${path}: reading parquet needs the hyparquet package (a dev dependency: run npm install in a clone), or give the rows as JSON Lines`);
  }
  const buf = readFileSync(path);
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  return (await hyparquet.parquetReadObjects({ file, columns: [...REQUIRED] })) as Record<string, unknown>[];
}

/** Rows of the file at `path` as tasks, in file order. */
export async function readTasks(path: string): Promise<IssueTask[]> {
  let rows: Record<string, unknown>[];
  if (/\.parquet$/i.test(path)) rows = await parquetRows(path);
  else {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read the tasks file ${path}: ${(err as Error).message}`);
    }
    const trimmed = text.trimStart();
    if (trimmed.startsWith('[')) {
      try {
        rows = JSON.parse(text) as Record<string, unknown>[];
      } catch (err) {
        throw new UsageError(`${path}: not a JSON array of rows: ${(err as Error).message}`);
      }
    } else {
      rows = [];
      for (const [i, line] of text.split('\n').entries()) {
        if (!line.trim()) continue;
        try {
          rows.push(JSON.parse(line) as Record<string, unknown>);
        } catch (err) {
          throw new UsageError(`${path}:${i + 1}: not a JSON row: ${(err as Error).message}`);
        }
      }
    }
  }
  if (rows.length === 0) throw new UsageError(`${path}: no rows`);
  return rows.map((r, i) => toTask(r, `${path} row ${i + 1}`));
}
