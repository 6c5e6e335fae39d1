/**
 * The soak's folders and what a working day does to them. Three brains:
 *
 *   big    a git repository of a few thousand files in five languages (the bench's generator)
 *   ts     a git repository in tree-sitter languages (C, C#, Kotlin, Ruby)
 *   plain  a folder that is not a git work tree (stat-walk detection)
 *
 * A Tree knows its files, so a burst can edit, add and delete any number of them, and the git
 * ones take the day's git moves (commit, branch switch, rebase, gc, renames). A token file is
 * written in each burst: a definition with a name no other file holds, that seek must find.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeRepoInChild } from '../fixtures/make-repo-child.js';
import { EXTENSION, generateSource, pickLanguage, Rng, seedOf, type BenchLanguage } from '../fixtures/source-files.js';
import { generateTreeSitterSource, TREE_SITTER_BENCH_LANGUAGES, TREE_SITTER_EXTENSION, type TreeSitterBenchLanguage } from '../fixtures/tree-sitter-sources.js';

export type TreeKind = 'big' | 'ts' | 'plain';

interface TreeFile {
  path: string;
  lang: BenchLanguage | TreeSitterBenchLanguage;
  n: number;
}

/** The per-file bound past which a file is mapped but not indexed (src/vigil/tick.ts DEFAULT_MAX_INDEX_BYTES, 1 MiB). */
export const GROWN_FILE_BYTES = 1_200_000;

export const TOKEN_FOLDER = 'soak-tokens';

const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'soak', GIT_AUTHOR_EMAIL: 'soak@example.invalid', GIT_COMMITTER_NAME: 'soak', GIT_COMMITTER_EMAIL: 'soak@example.invalid' };

export class Tree {
  readonly files: TreeFile[];
  #rng: Rng;
  #made = 0;
  #lastToken: string | null = null;
  #grown: { path: string; text: string } | null = null;
  #renamed: { from: string; to: string }[] = [];

  constructor(
    readonly kind: TreeKind,
    readonly dir: string,
    files: TreeFile[],
    readonly git: boolean,
    seed: number,
  ) {
    this.files = files;
    this.#rng = new Rng(seedOf(seed, kind));
  }

  #source(f: TreeFile, seed: number): string {
    if (this.kind === 'ts') return generateTreeSitterSource(f.lang as TreeSitterBenchLanguage, seed, f.n);
    const stem = f.path.slice(f.path.lastIndexOf('/') + 1, f.path.lastIndexOf('.'));
    return generateSource(f.lang as BenchLanguage, seed, stem);
  }

  #write(f: TreeFile, seed: number): void {
    mkdirSync(dirname(join(this.dir, f.path)), { recursive: true });
    writeFileSync(join(this.dir, f.path), this.#source(f, seed));
  }

  runGit(...args: string[]): string {
    return execFileSync('git', ['-C', this.dir, ...args], { env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /**
   * One burst of `size` paths: about 70% edited, 15% deleted, 15% new (in folders that exist,
   * so the tree's folders stay as they were), and the token file: the last burst's token file
   * is deleted, this one's written. Returns the token.
   */
  burst(size: number, round: number): string {
    const rng = this.#rng;
    const deletes = Math.floor(size * 0.15);
    const adds = Math.floor(size * 0.15);
    const edits = Math.max(0, size - deletes - adds);
    for (let i = 0; i < edits; i++) this.#write(rng.pick(this.files), seedOf(round, i, 'edit'));
    for (let i = 0; i < deletes && this.files.length > 100; i++) {
      const at = rng.int(0, this.files.length - 1);
      const [f] = this.files.splice(at, 1);
      unlinkSync(join(this.dir, f!.path));
    }
    for (let i = 0; i < adds; i++) {
      const like = rng.pick(this.files);
      const ext = like.path.slice(like.path.lastIndexOf('.'));
      const n = 1_000_000 + ++this.#made;
      const stem = this.kind === 'ts' ? `soak_${n}` : like.lang === 'java' ? `Soak${n}` : like.lang === 'typescript' ? `soak-${n}` : `soak_${n}`;
      const f: TreeFile = { path: `${dirname(like.path)}/${stem}${ext}`, lang: like.lang, n };
      this.#write(f, seedOf(round, i, 'add'));
      this.files.push(f);
    }
    if (this.#lastToken) unlinkSync(join(this.dir, this.#lastToken));
    const token = `soakToken${round}x${rng.int(0, 0xffffff).toString(16)}`;
    const rel = this.kind === 'ts' ? `${TOKEN_FOLDER}/${token}.rb` : `${TOKEN_FOLDER}/${token}.ts`;
    const text = this.kind === 'ts' ? `def ${token}\n  ${round}\nend\n` : `export function ${token}(): number {\n  return ${round};\n}\n`;
    // Written whole under another name, then renamed: the watcher never reads half a token file.
    writeFileSync(join(this.dir, `${rel}.tmp`), text);
    renameSync(join(this.dir, `${rel}.tmp`), join(this.dir, rel));
    this.#lastToken = rel;
    return token;
  }

  /** A file grows past the per-file bound, or (the next call) shrinks back below it. */
  growOrShrink(): string {
    if (this.#grown) {
      writeFileSync(join(this.dir, this.#grown.path), this.#grown.text);
      const p = this.#grown.path;
      this.#grown = null;
      return `shrank ${p} below the per-file bound`;
    }
    const f = this.#rng.pick(this.files);
    const text = readFileSync(join(this.dir, f.path), 'utf8');
    const line = `// ${'padding '.repeat(12)}\n`;
    writeFileSync(join(this.dir, f.path), text + line.repeat(Math.ceil(GROWN_FILE_BYTES / line.length)));
    this.#grown = { path: f.path, text };
    return `grew ${f.path} past the per-file bound (${GROWN_FILE_BYTES} bytes)`;
  }

  /** Renames `count` files (git mv in a git tree), or (the next call) renames them back. */
  renames(count: number): string {
    if (this.#renamed.length) {
      for (const r of this.#renamed) this.#move(r.to, r.from);
      const n = this.#renamed.length;
      this.#renamed = [];
      return `renamed ${n} files back`;
    }
    for (let i = 0; i < count; i++) {
      const from = this.#rng.pick(this.files).path;
      if (this.#renamed.some((r) => r.from === from)) continue;
      const to = from.replace(/(\.[a-z]+)$/, `_moved$1`);
      if (this.#move(from, to)) this.#renamed.push({ from, to });
    }
    return `renamed ${this.#renamed.length} files`;
  }

  /** Renames one file (git mv in a git tree); false when it is not there or the new name is taken. */
  #move(from: string, to: string): boolean {
    const f = this.files.find((x) => x.path === from);
    if (!f || !existsSync(join(this.dir, from)) || existsSync(join(this.dir, to))) return false;
    let moved = false;
    if (this.git) {
      try {
        this.runGit('mv', from, to);
        moved = true;
      } catch {
        // Not tracked yet (a new file of a burst): renamed as an editor would.
      }
    }
    if (!moved) renameSync(join(this.dir, from), join(this.dir, to));
    f.path = to;
    return true;
  }

  /** Commits everything as it is (a git tree). */
  commitAll(message: string): void {
    this.runGit('add', '-A');
    this.runGit('commit', '-q', '--allow-empty', '-m', message);
  }

  /** A branch switch: a side branch with `count` edited files committed, then back to main (those files change back). */
  branchSwitch(round: number, count: number): string {
    this.commitAll(`soak round ${round}`);
    this.runGit('checkout', '-q', '-b', `side-${round}`);
    for (let i = 0; i < count; i++) this.#write(this.#rng.pick(this.files), seedOf(round, i, 'side'));
    this.commitAll(`side ${round}`);
    this.runGit('checkout', '-q', 'main');
    this.runGit('branch', '-q', '-D', `side-${round}`);
    return `switched to a side branch with ${count} edited files and back`;
  }

  /** A rebase: a side branch and main both move, the side is rebased onto main and main fast-forwards to it. */
  rebase(round: number, count: number): string {
    this.commitAll(`soak round ${round}`);
    const half = Math.max(1, Math.floor(count / 2));
    const picked = new Set<TreeFile>();
    while (picked.size < Math.min(count, this.files.length)) picked.add(this.#rng.pick(this.files));
    const list = [...picked];
    this.runGit('checkout', '-q', '-b', `rebase-${round}`);
    list.slice(0, half).forEach((f, i) => this.#write(f, seedOf(round, i, 'rebase-side')));
    this.commitAll(`rebase side ${round}`);
    this.runGit('checkout', '-q', 'main');
    list.slice(half).forEach((f, i) => this.#write(f, seedOf(round, i, 'rebase-main')));
    this.commitAll(`rebase main ${round}`);
    this.runGit('checkout', '-q', `rebase-${round}`);
    this.runGit('rebase', '-q', 'main');
    this.runGit('checkout', '-q', 'main');
    this.runGit('merge', '-q', '--ff-only', `rebase-${round}`);
    this.runGit('branch', '-q', '-D', `rebase-${round}`);
    return `rebased a side branch (${half} files) onto main (${list.length - half} files) and fast-forwarded`;
  }

  gc(): string {
    this.runGit('gc', '-q');
    return 'git gc';
  }
}

function commitNew(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { env: { ...process.env, ...GIT_ENV }, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'soak: the first commit');
}

/** The big repository: the bench's generator, in a child process (its garbage is not ours). */
export async function makeBigTree(parent: string, files: number, seed: number): Promise<Tree> {
  const repo = await makeRepoInChild(parent, files, seed);
  mkdirSync(join(repo.dir, TOKEN_FOLDER), { recursive: true });
  writeFileSync(join(repo.dir, TOKEN_FOLDER, 'README.md'), 'Tokens the soak writes and looks up.\n');
  const tree = new Tree('big', repo.dir, repo.files.map((f, i) => ({ path: f.path, lang: f.lang, n: i })), true, seed);
  tree.commitAll('soak: the token folder');
  return tree;
}

/** A git repository of `files` tree-sitter sources (C, C#, Kotlin, Ruby), about 8 KB each. */
export function makeTreeSitterTree(dir: string, files: number, seed: number): Tree {
  const list: TreeFile[] = [];
  for (let i = 0; i < files; i++) {
    const lang = TREE_SITTER_BENCH_LANGUAGES[i % TREE_SITTER_BENCH_LANGUAGES.length]!;
    list.push({ path: `src/${lang}/m${i % 10}/unit_${i}.${TREE_SITTER_EXTENSION[lang]}`, lang, n: i });
  }
  const tree = new Tree('ts', dir, list, true, seed);
  for (const f of list) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), generateTreeSitterSource(f.lang as TreeSitterBenchLanguage, seedOf(seed, f.path), f.n));
  }
  mkdirSync(join(dir, TOKEN_FOLDER), { recursive: true });
  writeFileSync(join(dir, TOKEN_FOLDER, 'README.md'), 'Tokens.\n');
  commitNew(dir);
  return tree;
}

/** A folder that is no git work tree, of `files` sources in the line-scanner languages. */
export function makePlainTree(dir: string, files: number, seed: number): Tree {
  const rng = new Rng(seedOf(seed, 'plain'));
  const list: TreeFile[] = [];
  for (let i = 0; i < files; i++) {
    const lang = pickLanguage(rng);
    const stem = lang === 'java' ? `Unit${i}` : lang === 'typescript' ? `unit-${i}` : `unit_${i}`;
    list.push({ path: `lib/${lang}/p${i % 8}/${stem}.${EXTENSION[lang]}`, lang, n: i });
  }
  for (const f of list) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    const stem = f.path.slice(f.path.lastIndexOf('/') + 1, f.path.lastIndexOf('.'));
    writeFileSync(join(dir, f.path), generateSource(f.lang as BenchLanguage, seedOf(seed, f.path), stem));
  }
  mkdirSync(join(dir, TOKEN_FOLDER), { recursive: true });
  return new Tree('plain', dir, list, false, seed);
}
