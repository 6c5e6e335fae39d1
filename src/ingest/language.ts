/**
 * A file's language: the one table from extension to language, and the two content rules the
 * extension cannot settle. `languageOf` needs only the path (the code map's labels, filters);
 * `languageOfFile` also looks at the text the hash+extract worker has read anyway: a `.h` is C,
 * C++ or Objective-C by what it holds, and an extensionless script is named by its shebang.
 * Six languages get symbols from line scanners (extract/), the others with a grammar from
 * tree-sitter (tree-sitter/grammars.ts); the rest are labels only, so the map can still be
 * filtered by them.
 */
export type Language =
  | 'typescript'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'markdown'
  | 'json'
  | 'yaml'
  | 'toml'
  | 'c'
  | 'cpp'
  | 'csharp'
  | 'ruby'
  | 'php'
  | 'shell'
  | 'css'
  | 'html'
  | 'sql'
  | 'kotlin'
  | 'swift'
  | 'objc'
  | 'scala'
  | 'lua'
  | 'elixir'
  | 'dart'
  | 'zig'
  | 'ocaml'
  | 'elm'
  | 'solidity'
  | 'haskell'
  | 'perl'
  | 'r'
  | 'elisp'
  | 'gleam'
  | 'rescript'
  | 'vue'
  | 'svelte';

const BY_EXTENSION: ReadonlyMap<string, Language> = new Map<string, Language>([
  ['ts', 'typescript'],
  ['tsx', 'typescript'],
  ['mts', 'typescript'],
  ['cts', 'typescript'],
  ['js', 'javascript'],
  ['jsx', 'javascript'],
  ['mjs', 'javascript'],
  ['cjs', 'javascript'],
  ['py', 'python'],
  ['pyi', 'python'],
  ['go', 'go'],
  ['rs', 'rust'],
  ['java', 'java'],
  ['md', 'markdown'],
  ['markdown', 'markdown'],
  ['json', 'json'],
  ['jsonc', 'json'],
  ['yml', 'yaml'],
  ['yaml', 'yaml'],
  ['toml', 'toml'],
  ['c', 'c'],
  ['h', 'c'],
  ['cc', 'cpp'],
  ['cpp', 'cpp'],
  ['cxx', 'cpp'],
  ['hh', 'cpp'],
  ['hpp', 'cpp'],
  ['hxx', 'cpp'],
  ['cs', 'csharp'],
  ['rb', 'ruby'],
  ['php', 'php'],
  ['sh', 'shell'],
  ['bash', 'shell'],
  ['zsh', 'shell'],
  ['css', 'css'],
  ['scss', 'css'],
  ['less', 'css'],
  ['html', 'html'],
  ['htm', 'html'],
  ['sql', 'sql'],
  ['kt', 'kotlin'],
  ['kts', 'kotlin'],
  ['swift', 'swift'],
  ['c++', 'cpp'],
  ['h++', 'cpp'],
  ['ipp', 'cpp'],
  ['m', 'objc'],
  ['mm', 'objc'],
  ['scala', 'scala'],
  ['sc', 'scala'],
  ['lua', 'lua'],
  ['ex', 'elixir'],
  ['exs', 'elixir'],
  ['dart', 'dart'],
  ['zig', 'zig'],
  ['ml', 'ocaml'],
  ['mli', 'ocaml'],
  ['elm', 'elm'],
  ['sol', 'solidity'],
  ['hs', 'haskell'],
  ['lhs', 'haskell'],
  ['pl', 'perl'],
  ['pm', 'perl'],
  ['r', 'r'],
  ['el', 'elisp'],
  ['gleam', 'gleam'],
  ['res', 'rescript'],
  ['resi', 'rescript'],
  ['vue', 'vue'],
  ['svelte', 'svelte'],
  ['rake', 'ruby'],
  ['gemspec', 'ruby'],
  ['ksh', 'shell'],
]);

/** Interpreters a shebang may name, by the program's base name without a version suffix. */
const BY_INTERPRETER: ReadonlyMap<string, Language> = new Map<string, Language>([
  ['sh', 'shell'],
  ['bash', 'shell'],
  ['dash', 'shell'],
  ['zsh', 'shell'],
  ['ksh', 'shell'],
  ['python', 'python'],
  ['node', 'javascript'],
  ['nodejs', 'javascript'],
  ['bun', 'javascript'],
  ['deno', 'typescript'],
  ['tsx', 'typescript'],
  ['ts-node', 'typescript'],
  ['ruby', 'ruby'],
  ['perl', 'perl'],
  ['php', 'php'],
  ['lua', 'lua'],
  ['elixir', 'elixir'],
  ['rscript', 'r'],
]);

/** How much of a `.h` is looked at to tell C from C++ and Objective-C; the tells sit near the top. */
const HEADER_SNIFF_CHARS = 64 * 1024;

const OBJC_TELLS = /^[ \t]*(?:@interface|@implementation|@protocol|@class|#import)\b/m;
const CPP_TELLS = /^[ \t]*(?:(?:template[ \t]*<)|(?:class|namespace)[ \t]+\w|(?:public|private|protected)[ \t]*:)|\bstd::|\busing[ \t]+namespace\b/m;

/**
 * The language of a file whose text is known: the extension's answer, except that a `.h` is
 * told apart by what it holds and a file with no known extension by its shebang line.
 */
export function languageOfFile(path: string, text: string): Language | null {
  const byExtension = languageOf(path);
  if (byExtension === 'c' && /\.h$/i.test(path)) {
    const head = text.length > HEADER_SNIFF_CHARS ? text.slice(0, HEADER_SNIFF_CHARS) : text;
    if (OBJC_TELLS.test(head)) return 'objc';
    if (CPP_TELLS.test(head)) return 'cpp';
    return 'c';
  }
  if (byExtension !== null || !text.startsWith('#!')) return byExtension;
  return languageOfShebang(text.slice(0, Math.min(text.length, 256)).split('\n', 1)[0]!);
}

/** `#!/usr/bin/env -S python3 -u` → python; `#!/bin/bash` → shell. */
function languageOfShebang(line: string): Language | null {
  const words = line.slice(2).trim().split(/\s+/);
  let program = words.shift() ?? '';
  if (program.endsWith('/env') || program === 'env') {
    while (words[0]?.startsWith('-') || words[0]?.includes('=')) words.shift();
    program = words.shift() ?? '';
  }
  const name = program.slice(program.lastIndexOf('/') + 1).toLowerCase().replace(/[\d.]+$/, '');
  return BY_INTERPRETER.get(name) ?? null;
}

/** The language of `path` by its extension (case-insensitive), or null when it has none we know. */
export function languageOf(path: string): Language | null {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const dot = path.lastIndexOf('.');
  // A dot at the start of the base name is a dotfile (`.gitignore`), not an extension.
  if (dot <= slash + 1 || dot === path.length - 1) return null;
  return BY_EXTENSION.get(path.slice(dot + 1).toLowerCase()) ?? null;
}
