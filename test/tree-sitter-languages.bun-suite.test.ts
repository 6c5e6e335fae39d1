/**
 * Every tree-sitter language, on every runtime: `npm test` runs this file on Node (20 and, in
 * CI, 24) and scripts/run-bun-suite.mjs runs it again under Bun. Each grammar row must load
 * with its query, and a small sample of each language must give the definitions (kind, name,
 * line, exported) and imports a reader of that language would name. The samples are inline:
 * short enough to read beside the expectation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractFile } from '../src/ingest/extraction.js';
import { languageOf, languageOfFile } from '../src/ingest/language.js';
import { GRAMMARS, loadGrammar } from '../src/ingest/tree-sitter/index.js';
import type { SymbolDef } from '../src/ingest/extract/types.js';

type Def = `${SymbolDef['kind']} ${string}@${number}` | `${SymbolDef['kind']} ${string}@${number} hidden`;

interface Case {
  path: string;
  source: string;
  defs: Def[];
  imports: string[];
}

const CASES: Case[] = [
  {
    path: 'src/a.c',
    source: '#include "foo/bar.h"\n#include <stdio.h>\nstatic int helper(int x) { return x; }\nstruct point { int x; };\ntypedef struct { int y; } pt;\nint main(void) { return helper(1); }\n',
    defs: ['function helper@3 hidden', 'class point@4', 'type pt@5', 'function main@6'],
    imports: ['foo/bar.h', 'stdio.h'],
  },
  {
    path: 'src/a.cpp',
    source: '#include "x.hpp"\nnamespace n {\nclass K {\n public:\n  void m();\n};\nvoid K::m() {}\n}\n',
    defs: ['module n@2', 'class K@3', 'method m@5', 'method m@7'],
    imports: ['x.hpp'],
  },
  {
    path: 'src/A.cs',
    source: 'using System.Text;\nnamespace Foo.Bar {\n  public class A : IB {\n    private void M() { }\n  }\n  public interface IB { }\n  public enum E { X }\n}\n',
    defs: ['module Foo.Bar@2', 'class A@3', 'method M@4 hidden', 'interface IB@6', 'enum E@7'],
    imports: ['System.Text'],
  },
  {
    path: 'src/A.m',
    source: '#import "Foo.h"\n@interface A : NSObject\n- (void)m;\n@end\n@implementation A\n- (void)m {}\n@end\n',
    defs: ['class A@2', 'method m@3', 'class A@5', 'method m@6'],
    imports: ['Foo.h'],
  },
  {
    path: 'src/a.kt',
    source: 'package com.x\nimport com.x.Foo\nclass A : B() {\n  fun m() {}\n}\nprivate fun top() = 1\nobject O\ninterface I\n',
    defs: ['class A@3', 'method m@4', 'function top@6 hidden', 'module O@7', 'interface I@8'],
    imports: ['com.x.Foo'],
  },
  {
    path: 'src/a.swift',
    source: 'import Foundation\nclass A {\n  func m() {}\n}\nprotocol P {\n  func q()\n}\nfunc top() {}\n',
    defs: ['class A@2', 'method m@3', 'interface P@5', 'method q@6', 'function top@8'],
    imports: ['Foundation'],
  },
  {
    path: 'src/a.scala',
    source: 'package a.b\nimport scala.util.Try\ntrait T\nobject O {\n  def f = 1\n}\nclass C extends T\n',
    defs: ['module a.b@1', 'interface T@3', 'module O@4', 'function f@5', 'class C@7'],
    imports: ['scala.util.Try'],
  },
  {
    path: 'lib/a.dart',
    source: "import 'package:x/y.dart';\nclass A extends B {\n  void m() {}\n}\nvoid f() {}\nvoid _g() {}\nenum E { a }\n",
    defs: ['class A@2', 'method m@3', 'function f@5', 'function _g@6 hidden', 'enum E@7'],
    imports: ['package:x/y.dart'],
  },
  {
    path: 'lib/a.rb',
    source: "require 'json'\nrequire_relative 'lib/x'\nmodule M\n  class K < Base\n    def m; end\n    def self.s; end\n  end\nend\n",
    defs: ['module M@3', 'class K@4', 'method m@5', 'method s@6'],
    imports: ['json', 'lib/x'],
  },
  {
    path: 'src/A.php',
    source: "<?php\nnamespace App\\Http;\nuse App\\Models\\User;\nrequire 'y.php';\nclass A {\n  private function m() {}\n}\nfunction f() {}\n",
    defs: ['module App\\Http@2', 'class A@5', 'method m@6 hidden', 'function f@8'],
    imports: ['App\\Models\\User', 'y.php'],
  },
  {
    path: 'a.lua',
    source: 'local x = require("mod.x")\nlocal function f() end\nfunction M.g() end\nfunction M:h() end\n',
    defs: ['function f@2 hidden', 'function g@3', 'method h@4'],
    imports: ['mod.x'],
  },
  {
    path: 'bin/a.sh',
    source: 'source ./lib.sh\nf() { echo; }\nfunction g { :; }\n',
    defs: ['function f@2', 'function g@3'],
    imports: ['./lib.sh'],
  },
  {
    path: 'lib/Foo.pm',
    source: 'package Foo::Bar;\nuse strict;\nuse Foo::Baz;\nsub f { }\nsub _p { }\n',
    defs: ['module Foo::Bar@1', 'function f@4', 'function _p@5 hidden'],
    imports: ['strict', 'Foo::Baz'],
  },
  {
    path: 'R/a.R',
    source: 'library(dplyr)\nsource("x.R")\nf <- function(x) x\n',
    defs: ['function f@3'],
    imports: ['dplyr', 'x.R'],
  },
  {
    path: 'lib/a.ex',
    source: 'defmodule A.B do\n  alias X.Y\n  def f(a), do: a\n  defp g, do: 1\nend\n',
    defs: ['module A.B@1', 'function f@3', 'function g@4 hidden'],
    imports: ['X.Y'],
  },
  {
    path: 'src/Main.elm',
    source: 'module Main exposing (main)\nimport Html exposing (text)\ntype Msg = A | B\ntype alias Model = Int\nmain = text "x"\n',
    defs: ['module Main@1', 'type Msg@3', 'type Model@4', 'function main@5'],
    imports: ['Html'],
  },
  {
    path: 'src/Main.hs',
    source: 'module Main where\nimport Data.List (sort)\ndata T = A | B\nf :: Int -> Int\nf x = x\nclass C a where\n  m :: a\n',
    defs: ['module Main@1', 'type T@3', 'function f@4', 'interface C@6'],
    imports: ['Data.List'],
  },
  {
    path: 'src/a.gleam',
    source: 'import gleam/io\npub fn main() { io.println("x") }\nfn p() { 1 }\npub type T { A }\n',
    defs: ['function main@2', 'function p@3 hidden', 'type T@4'],
    imports: ['gleam/io'],
  },
  {
    path: 'src/a.zig',
    source: 'const std = @import("std");\npub fn main() void {}\nconst S = struct {\n  fn m() void {}\n};\n',
    defs: ['function main@2', 'struct S@3 hidden', 'method m@4 hidden'],
    imports: ['std'],
  },
  {
    path: 'src/a.ml',
    source: 'open Printf\nmodule M = struct\n  let f x = x\nend\ntype t = A | B\nlet g x = x + 1\n',
    defs: ['module M@2', 'function f@3', 'type t@5', 'function g@6'],
    imports: ['Printf'],
  },
  {
    path: 'src/A.res',
    source: 'open Belt\nlet f = x => x\ntype t = A | B\nmodule M = {\n  let g = 1\n}\n',
    defs: ['function f@2', 'type t@3', 'module M@4'],
    imports: ['Belt'],
  },
  {
    path: 'contracts/A.sol',
    source: 'import "./B.sol";\ncontract A is B {\n  function f() public {}\n  struct S { uint x; }\n}\ninterface I {}\n',
    defs: ['class A@2', 'method f@3', 'struct S@4', 'interface I@6'],
    imports: ['./B.sol'],
  },
  {
    path: 'lisp/a.el',
    source: "(require 'cl-lib)\n(defun foo (x) x)\n(defmacro bar () nil)\n",
    defs: ['function foo@2', 'function bar@3'],
    imports: ['cl-lib'],
  },
  {
    path: 'src/App.vue',
    source: '<template><div/></template>\n<script lang="ts">\nimport { ref } from "vue";\nexport function useThing() {}\n</script>\n',
    defs: ['function useThing@4'],
    imports: ['vue'],
  },
  {
    path: 'src/App.svelte',
    source: '<script>\n  import Child from "./Child.svelte";\n  export let name;\n  function greet() {}\n</script>\n<h1>{name}</h1>\n',
    defs: ['function greet@4 hidden'],
    imports: ['./Child.svelte'],
  },
];

function describeDef(s: SymbolDef): string {
  return `${s.kind} ${s.name}@${s.line}${s.exported ? '' : ' hidden'}`;
}

test('every grammar row loads with its query on this runtime', async () => {
  for (const row of GRAMMARS) {
    const grammar = await loadGrammar(row);
    assert.ok(grammar.query.captureNames.includes('name'), `${row.language}: its query names no @name`);
  }
});

test('at least 30 languages have definitions, through a scanner or a grammar', () => {
  const scanned = ['typescript', 'javascript', 'python', 'go', 'rust', 'java', 'vue', 'svelte'];
  const all = new Set([...scanned, ...GRAMMARS.map((g) => g.language)]);
  assert.ok(all.size >= 30, `only ${all.size} languages`);
});

for (const c of CASES) {
  test(`${languageOf(c.path)}: a sample's definitions and imports are found where they are written`, async () => {
    const language = languageOfFile(c.path, c.source);
    const { extraction, note } = await extractFile(language, c.source, Buffer.byteLength(c.source));
    assert.equal(note, undefined);
    const found = extraction.symbols.map(describeDef);
    for (const want of c.defs) assert.ok(found.includes(want), `${c.path}: missing ${want}; found ${found.join(', ')}`);
    assert.deepEqual(extraction.imports.map((i) => i.module), c.imports, c.path);
  });
}

test('references name the enclosing definition as the caller', async () => {
  const source = 'int helper(int x) { return x; }\nint main(void) { return helper(1); }\n';
  const { extraction } = await extractFile('c', source, source.length);
  assert.deepEqual(extraction.references, [{ name: 'helper', line: 2, kind: 'call', in: 'main' }]);
});
