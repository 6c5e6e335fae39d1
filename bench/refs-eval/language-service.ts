/**
 * The reference answer for the refs eval: the TypeScript language service's `findReferences`
 * over a repository's own TypeScript and JavaScript files (no node_modules needed: the compiler options are the
 * root tsconfig's `baseUrl` and `paths`, if any, over bundler-style resolution, so `./x.js`
 * finds `x.ts` and an alias finds its folder). Only the files of the repository count.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'out', 'coverage', '.next', '.turbo']);

export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(join(dir, e.name));
      } else if (e.isFile() && /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(e.name) && !/\.min\.js$/.test(e.name)) out.push(join(dir, e.name));
    }
  };
  walk(root);
  return out;
}

export class ReferenceOracle {
  readonly #root: string;
  readonly #service: ts.LanguageService;
  readonly #files: Set<string>;

  constructor(root: string) {
    this.#root = root;
    const files = sourceFiles(root);
    this.#files = new Set(files);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      jsx: ts.JsxEmit.Preserve,
      allowJs: true,
      checkJs: false,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      ...rootAliases(root),
    };
    const versions = new Map(files.map((f) => [f, '1']));
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => files,
      getScriptVersion: (f) => versions.get(f) ?? '1',
      getScriptSnapshot: (f) => {
        try {
          return ts.ScriptSnapshot.fromString(readFileSync(f, 'utf8'));
        } catch {
          return undefined;
        }
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    this.#service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Whether the service reads this root-relative file (folders like node_modules, dist and dot-folders are left out). */
  covers(path: string): boolean {
    return this.#files.has(join(this.#root, path));
  }

  /** The repository files (root-relative) that reference the declaration named `name` on `line` of `path`. */
  referencingFiles(path: string, line: number, name: string): Set<string> | null {
    const file = join(this.#root, path);
    if (!this.#files.has(file)) return null;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    const lines = text.split('\n');
    const lineText = lines[line - 1];
    if (lineText === undefined) return null;
    const column = findWord(lineText, name);
    if (column < 0) return null;
    let offset = 0;
    for (let i = 0; i < line - 1; i++) offset += lines[i]!.length + 1;
    let found: ts.ReferencedSymbol[] | undefined;
    try {
      found = this.#service.findReferences(file, offset + column);
    } catch {
      return null;
    }
    if (!found) return null;
    const out = new Set<string>();
    for (const symbol of found) {
      for (const r of symbol.references) {
        const rel = relative(this.#root, r.fileName).split(sep).join('/');
        if (rel.startsWith('..') || rel.includes('node_modules/')) continue;
        out.add(rel);
      }
    }
    return out;
  }
}

function findWord(line: string, name: string): number {
  const re = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  const m = re.exec(line);
  return m ? m.index : -1;
}

function rootAliases(root: string): ts.CompilerOptions {
  for (const name of ['tsconfig.json', 'tsconfig.base.json']) {
    const file = join(root, name);
    try {
      if (!statSync(file).isFile()) continue;
    } catch {
      continue;
    }
    const read = ts.readConfigFile(file, ts.sys.readFile);
    if (read.error || !read.config) continue;
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
    const o = parsed.options;
    const out: ts.CompilerOptions = {};
    if (o.baseUrl) out.baseUrl = o.baseUrl;
    if (o.paths) out.paths = o.paths;
    return out;
  }
  return {};
}
