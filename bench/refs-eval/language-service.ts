/**
 * The reference answer for the refs eval: the TypeScript language service's `findReferences`
 * over a repository's own TypeScript and JavaScript files, seeing the repository as its compiler
 * would after an install, with no install:
 *
 *   - declaration files are read only where a tsconfig of the repository names them;
 *   - compiler options are the repository's own root tsconfig (its `extends` followed; when the
 *     root file only lists project `references`, the first referenced project's options, then a
 *     `tsconfig.base.json`): `paths` (with their base), `baseUrl`, `customConditions`,
 *     `moduleResolution`; without a module resolution of its own, bundler-style resolution, so
 *     `./x.js` finds `x.ts`;
 *   - workspace packages (npm/yarn `workspaces`, `pnpm-workspace.yaml` `packages`, with `!`
 *     exclusions; without either, every package.json of the tree) are resolvable by name as pnpm
 *     links them: the host answers `<root>/node_modules/<name>/…` from the package's folder and
 *     `realpath` maps it back, so the compiler reads the package's `exports` (and the tsconfig's
 *     custom conditions) exactly as it would through a symlink. Nothing is written to the tree.
 *
 * Only the files of the repository count. Nothing here is specific to one repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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

/** Every package.json folder of the tree (root-relative, '' for the root), skipping node_modules, build output and dot-folders. */
function packageFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isFile() && e.name === 'package.json') out.push(rel);
      else if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(join(dir, e.name), rel === '' ? e.name : `${rel}/${e.name}`);
    }
  };
  walk(root, '');
  return out;
}

/** A workspace glob as a regular expression over root-relative folders (`*` one segment, `**` any). */
function globRegex(glob: string): RegExp {
  const g = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    if (c === '*' && g[i + 1] === '*') {
      re += '.*';
      i++;
      if (g[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The workspace globs the repository declares: package.json `workspaces`, then pnpm-workspace.yaml `packages`; null when neither. */
function workspaceGlobs(root: string): string[] | null {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] | { packages?: string[] } };
    const ws = Array.isArray(pkg.workspaces) ? pkg.workspaces : pkg.workspaces?.packages;
    if (Array.isArray(ws) && ws.length > 0) return ws;
  } catch {
    // no root package.json, or not JSON
  }
  let yaml: string;
  try {
    yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  } catch {
    return null;
  }
  const globs: string[] = [];
  let inPackages = false;
  for (const line of yaml.split('\n')) {
    if (/^packages\s*:/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages) continue;
    const item = /^\s+-\s*['"]?([^'"#]+?)['"]?\s*(#.*)?$/.exec(line);
    if (item) globs.push(item[1]!.trim());
    else if (/^\S/.test(line)) inPackages = false;
  }
  return globs.length > 0 ? globs : null;
}

/** Workspace package name → absolute folder, as a pnpm install would link them. */
export function workspacePackages(root: string): Map<string, string> {
  const globs = workspaceGlobs(root);
  const include = globs?.filter((g) => !g.startsWith('!')).map(globRegex);
  const exclude = globs?.filter((g) => g.startsWith('!')).map((g) => globRegex(g.slice(1)));
  const out = new Map<string, string>();
  const folders = packageFolders(root).sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const rel of folders) {
    if (include && !(include.some((r) => r.test(rel)) && !exclude!.some((r) => r.test(rel)))) continue;
    try {
      const name = (JSON.parse(readFileSync(join(root, rel, 'package.json'), 'utf8')) as { name?: unknown }).name;
      if (typeof name === 'string' && name !== '' && !out.has(name)) out.set(name, join(root, rel));
    } catch {
      // not JSON: not a package
    }
  }
  return out;
}

function parsedConfig(file: string): { options: ts.CompilerOptions; references: string[]; fileNames: string[] } | null {
  try {
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error || !read.config) return null;
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file), undefined, file);
  const references = (parsed.projectReferences ?? []).map((r) => (/\.json$/.test(r.path) ? r.path : join(r.path, 'tsconfig.json')));
  return { options: parsed.options, references, fileNames: parsed.fileNames };
}

/** The repository's own compiler options: root tsconfig.json, else its first referenced project's, then tsconfig.base.json (first wins per option). */
export function repositoryOptions(root: string): { options: ts.CompilerOptions; declarationFiles: Set<string> } {
  const root1 = parsedConfig(join(root, 'tsconfig.json'));
  const layers: ts.CompilerOptions[] = [];
  const declarationFiles = new Set<string>();
  const named = (c: { fileNames: string[] }) => {
    for (const f of c.fileNames) if (/\.d\.[mc]?ts$/.test(f)) declarationFiles.add(f);
  };
  if (root1) {
    layers.push(root1.options);
    named(root1);
    const refs = root1.references.map(parsedConfig).filter((c) => c !== null);
    if (refs[0]) layers.push(refs[0].options);
    refs.forEach(named);
  }
  const base = parsedConfig(join(root, 'tsconfig.base.json'));
  if (base) layers.push(base.options);
  const options: ts.CompilerOptions = {};
  for (const layer of layers.reverse()) Object.assign(options, layer);
  return { options, declarationFiles };
}

export class ReferenceOracle {
  readonly #root: string;
  readonly #service: ts.LanguageService;
  readonly #files: Set<string>;
  readonly #resolutionHost: ts.ModuleResolutionHost;
  readonly packages: Map<string, string>;
  readonly options: ts.CompilerOptions;

  constructor(root: string) {
    this.#root = root;
    const { options: own, declarationFiles } = repositoryOptions(root);
    // Declaration files only where the repository's tsconfig names them: a script `.d.ts` left
    // out of every project (`declare module 'pkg' {…}` concatenated into a bundle at build time)
    // would shadow the workspace package it names, as it never does for the real compiler.
    const files = sourceFiles(root).filter((f) => !/\.d\.[mc]?ts$/.test(f) || declarationFiles.has(f));
    this.#files = new Set(files);
    const resolution = own.moduleResolution;
    const modern = resolution === ts.ModuleResolutionKind.Bundler || resolution === ts.ModuleResolutionKind.Node16 || resolution === ts.ModuleResolutionKind.NodeNext;
    this.options = {
      ...own,
      ...(modern ? {} : { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }),
      jsx: own.jsx ?? ts.JsxEmit.Preserve,
      allowJs: true,
      checkJs: false,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      composite: false,
      incremental: false,
      declaration: false,
      declarationMap: false,
      emitDeclarationOnly: false,
      types: [],
    };
    this.packages = workspacePackages(root);
    // `<root>/node_modules/<name>/rest` → `<package folder>/rest`, as pnpm's symlink would read.
    const modules = join(root, 'node_modules') + sep;
    const scopes = new Set([...this.packages.keys()].filter((n) => n.startsWith('@')).map((n) => n.split('/')[0]!));
    const linked = (p: string): string => {
      if (!p.startsWith(modules)) return p;
      const rest = p.slice(modules.length).split(sep).join('/');
      const parts = rest.split('/');
      const name = parts[0]!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
      const folder = this.packages.get(name);
      if (folder === undefined) return p;
      const tail = rest.slice(name.length);
      return tail === '' ? folder : join(folder, tail);
    };
    const isVirtualFolder = (p: string) => {
      const q = p.replace(/[\\/]+$/, '');
      if (q === join(root, 'node_modules')) return this.packages.size > 0;
      return q.startsWith(modules) && scopes.has(q.slice(modules.length));
    };
    const versions = new Map(files.map((f) => [f, '1']));
    const options = this.options;
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => files,
      getScriptVersion: (f) => versions.get(f) ?? '1',
      getScriptSnapshot: (f) => {
        try {
          return ts.ScriptSnapshot.fromString(readFileSync(linked(f), 'utf8'));
        } catch {
          return undefined;
        }
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (p) => ts.sys.fileExists(linked(p)),
      readFile: (p, enc) => ts.sys.readFile(linked(p), enc),
      readDirectory: ts.sys.readDirectory,
      directoryExists: (p) => isVirtualFolder(p) || ts.sys.directoryExists(linked(p)),
      getDirectories: ts.sys.getDirectories,
      realpath: (p) => (ts.sys.realpath ? ts.sys.realpath(linked(p)) : linked(p)),
    };
    this.#resolutionHost = host as ts.ModuleResolutionHost;
    this.#service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Whether the service reads this root-relative file (folders like node_modules, dist and dot-folders are left out). */
  covers(path: string): boolean {
    return this.#files.has(join(this.#root, path));
  }

  /** The language service's program (for reading what it resolved). */
  /** Where an import specifier written in `fromPath` (root-relative) resolves to, root-relative; null when outside the repository or unresolved. */
  resolvesTo(fromPath: string, specifier: string): string | null {
    const r = ts.resolveModuleName(specifier, join(this.#root, fromPath), this.options, this.#resolutionHost).resolvedModule;
    if (!r) return null;
    const rel = relative(this.#root, r.resolvedFileName).split(sep).join('/');
    return rel.startsWith('..') || rel.includes('node_modules/') ? null : rel;
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
    // findReferences follows `export *` without looking at what shadows it (a package that
    // re-exports a dependency's names and defines one of them itself): keep a reference only
    // when the checker binds it, through its aliases, to the asked declaration (or cannot tell).
    const program = this.#service.getProgram();
    const checker = program?.getTypeChecker();
    const target = checker && program ? declarationsAt(program, checker, file, offset + column) : undefined;
    const out = new Set<string>();
    for (const symbol of found) {
      for (const r of symbol.references) {
        const rel = relative(this.#root, r.fileName).split(sep).join('/');
        if (rel.startsWith('..') || rel.includes('node_modules/')) continue;
        if (target && checker && program && !r.isDefinition) {
          const bound = declarationsAt(program, checker, r.fileName, r.textSpan.start);
          if (bound && !bound.some((d) => target.includes(d))) continue;
        }
        out.add(rel);
      }
    }
    return out;
  }
}

/** The declarations the identifier at `position` binds to, its import and export aliases followed; undefined when the checker cannot tell. */
function declarationsAt(program: ts.Program, checker: ts.TypeChecker, fileName: string, position: number): ts.Declaration[] | undefined {
  const source = program.getSourceFile(fileName);
  if (!source) return undefined;
  const find = (node: ts.Node): ts.Node | undefined => {
    if (position < node.getStart(source) || position >= node.getEnd()) return undefined;
    return ts.forEachChild(node, find) ?? node;
  };
  const node = find(source);
  if (!node || !ts.isIdentifier(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) {
    try {
      symbol = checker.getAliasedSymbol(symbol);
    } catch {
      return undefined;
    }
  }
  const decls = symbol.declarations;
  return decls && decls.length > 0 ? decls : undefined;
}

function findWord(line: string, name: string): number {
  const re = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`);
  const m = re.exec(line);
  return m ? m.index : -1;
}
