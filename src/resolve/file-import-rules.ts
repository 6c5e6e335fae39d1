/**
 * How the imports of the tree-sitter languages name files, as candidate paths: `relative`
 * paths are joined to the importing file's folder and must name a file exactly; `suffix` paths
 * match a file whose path ends with them at a folder boundary (an include directory, a source
 * root, a PSR-4 prefix, wherever it sits). One row per language; a language without a row has
 * imports that name packages or modules no file path follows from (Swift, R's libraries…).
 *
 *   C, C++, Objective-C  `#include "a/b.h"`: beside the file, else under any include folder
 *   Ruby                 `require_relative 'x'` beside the file, `require 'a/b'` under any load path
 *   PHP                  `require 'x.php'` beside the file; `use A\B\C` as A/B/C.php, then with
 *                        leading namespace segments dropped (PSR-4 maps a prefix to a folder)
 *   Kotlin, Scala        `a.b.C` as a/b/C.kt|.scala, shortened to the package folder
 *   C#                   `using A.B` as the folder A/B, shortened to B
 *   Dart                 `package:p/x.dart` as lib/x.dart; a relative URI beside the file
 *   Lua                  `require "a.b"` as a/b.lua or a/b/init.lua
 *   Perl, Haskell, Elm   `A::B` / `A.B` as A/B.pm|.hs|.elm
 *   Elixir               `A.BcD` as a/bc_d.ex (its file naming convention)
 *   OCaml, ReScript      `open M` as m.ml / M.res
 *   Gleam                `a/b` as a/b.gleam
 *   bash, Solidity, Zig, R, Emacs Lisp  a path or feature name beside the file, else anywhere
 */

export interface FileCandidates {
  /** Paths relative to the importing file's folder, tried first, in order. */
  relative?: string[];
  /** Path suffixes matched anywhere in the map, in order. */
  suffix?: string[];
  /** Folder suffixes whose first file stands for the import (a package or namespace). */
  folder?: string[];
}

type Rule = (module: string) => FileCandidates;

const dotted = (m: string, sep: string | RegExp, ext: string) => `${m.split(sep).join('/')}${ext}`;

/** `a.b.C` → ['a/b/C', 'a/b'] shortened to two segments (as stems and as folders). */
function packagePaths(module: string, exts: string[]): FileCandidates {
  const clean = module.replace(/\.\{.*$/, '').replace(/\.[_*]$/, '').replace(/\s+as\s+.*$/, '');
  const parts = clean.split('.').filter(Boolean);
  const suffix: string[] = [];
  for (let k = parts.length; k >= 2; k--) for (const ext of exts) suffix.push(`${parts.slice(0, k).join('/')}${ext}`);
  const folder: string[] = [];
  for (let k = parts.length; k >= 2; k--) folder.push(parts.slice(0, k).join('/'));
  return { suffix, folder };
}

const snakeCase = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const withExt = (m: string, ext: string) => (m.endsWith(ext) ? m : `${m}${ext}`);

const include: Rule = (m) => ({ relative: [m], suffix: [m] });

export const FILE_IMPORT_RULES: Readonly<Record<string, Rule>> = {
  c: include,
  cpp: include,
  objc: include,
  ruby: (m) => ({ relative: [withExt(m, '.rb')], suffix: [withExt(m, '.rb')] }),
  php: (m) => {
    if (/\.(php|inc)$/.test(m)) return { relative: [m.replace(/^\//, '')], suffix: [m.replace(/^\//, '')] };
    const parts = m.replace(/^\\/, '').split('\\').filter(Boolean);
    const suffix: string[] = [];
    for (let k = 0; k <= parts.length - 1; k++) suffix.push(`${parts.slice(k).join('/')}.php`);
    return { suffix };
  },
  kotlin: (m) => packagePaths(m, ['.kt', '.kts', '.java']),
  scala: (m) => packagePaths(m, ['.scala']),
  csharp: (m) => {
    const parts = m.split('.');
    const folder: string[] = [];
    for (let k = 0; k < parts.length; k++) folder.push(parts.slice(k).join('/'));
    return { folder };
  },
  dart: (m) => {
    const pkg = /^package:[^/]+\/(.+)$/.exec(m);
    if (pkg) return { suffix: [`lib/${pkg[1]}`] };
    return m.startsWith('dart:') ? {} : { relative: [m] };
  },
  lua: (m) => ({ suffix: [dotted(m, '.', '.lua'), dotted(m, '.', '/init.lua')] }),
  perl: (m) => (/\.p[lm]$/.test(m) ? { relative: [m], suffix: [m] } : { suffix: [dotted(m, '::', '.pm')] }),
  haskell: (m) => ({ suffix: [dotted(m, '.', '.hs'), dotted(m, '.', '.lhs')] }),
  elm: (m) => ({ suffix: [dotted(m, '.', '.elm')] }),
  elixir: (m) => ({ suffix: [`${m.split('.').map(snakeCase).join('/')}.ex`, `${m.split('.').map(snakeCase).join('/')}.exs`] }),
  ocaml: (m) => {
    const last = m.split('.').pop()!;
    const file = last.charAt(0).toLowerCase() + last.slice(1);
    return { suffix: [`${file}.ml`, `${file}.mli`] };
  },
  rescript: (m) => ({ suffix: [`${m.split('.').pop()!}.res`] }),
  gleam: (m) => ({ suffix: [`${m}.gleam`] }),
  shell: (m) => ({ relative: [m], suffix: [m.replace(/^\.\//, '')] }),
  solidity: (m) => ({ relative: [m], suffix: [m.replace(/^(\.\.?\/)+/, '')] }),
  zig: (m) => (m.endsWith('.zig') ? { relative: [m] } : {}),
  r: (m) => (/\.[rR]$/.test(m) ? { relative: [m], suffix: [m] } : {}),
  elisp: (m) => ({ suffix: [`${m}.el`] }),
};
