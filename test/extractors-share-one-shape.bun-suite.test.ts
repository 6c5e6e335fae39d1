/**
 * Two extraction paths, one shape: for the six languages that both the line scanners and a
 * tree-sitter grammar cover, one suite runs both on the same fixtures (undici's cacheStoreTests
 * habit). Each must find the definitions a reader would look up (name and line) and the modules
 * imported, in the `Extraction` shape. Kinds are the scanner's finer choice and are not compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractDefinitions } from '../src/ingest/extract/index.js';
import type { Extraction } from '../src/ingest/extract/types.js';
import { extractWithTreeSitter, grammarRowOf, loadGrammar, TREE_SITTER_BUDGET_MS, TREE_SITTER_MAX_BYTES } from '../src/ingest/tree-sitter/index.js';

interface Fixture {
  language: string;
  source: string;
  /** `name@line` each path must find. */
  defs: string[];
  imports: string[];
}

const FIXTURES: Fixture[] = [
  {
    language: 'typescript',
    source: "import { a } from './a.js';\nexport interface Shape { area(): number }\nexport class Square implements Shape {\n  area(): number { return 1; }\n}\nexport function make(): Square { return new Square(); }\n",
    defs: ['Shape@2', 'Square@3', 'area@4', 'make@6'],
    imports: ['./a.js'],
  },
  {
    language: 'javascript',
    source: "import fs from 'node:fs';\nexport class Reader {\n  read() { return fs; }\n}\nexport function open() { return new Reader(); }\n",
    defs: ['Reader@2', 'read@3', 'open@5'],
    imports: ['node:fs'],
  },
  {
    language: 'python',
    source: 'import os\nfrom .util import helper\n\nclass Store:\n    def get(self, key):\n        return helper(key)\n\ndef main():\n    Store().get(1)\n',
    defs: ['Store@4', 'get@5', 'main@8'],
    imports: ['os', '.util'],
  },
  {
    language: 'go',
    source: 'package store\n\nimport (\n\t"fmt"\n\t"os"\n)\n\ntype Store struct{}\n\nfunc (s *Store) Get(k string) string { return fmt.Sprint(k, os.Args) }\n\nfunc New() *Store { return &Store{} }\n',
    defs: ['Store@8', 'Get@10', 'New@12'],
    imports: ['fmt', 'os'],
  },
  {
    language: 'rust',
    source: 'use std::io::Read;\n\npub struct Store;\n\npub trait Get {\n    fn get(&self) -> u8;\n}\n\nimpl Store {\n    pub fn new() -> Self { Store }\n}\n\npub fn main() {}\n',
    defs: ['Store@3', 'Get@5', 'get@6', 'new@10', 'main@13'],
    imports: ['std::io::Read'],
  },
  {
    language: 'java',
    source: 'package a.b;\n\nimport java.util.List;\n\npublic class Store {\n    public List<String> get() { return null; }\n}\n\ninterface Getter {}\n',
    defs: ['Store@5', 'get@6', 'Getter@9'],
    imports: ['java.util.List'],
  },
];

const PATHS: [string, (language: string, text: string) => Promise<Extraction>][] = [
  ['line scanner', async (language, text) => extractDefinitions(language, text)],
  [
    'tree-sitter',
    async (language, text) => {
      const grammar = await loadGrammar(grammarRowOf(language, { scanned: true })!);
      const out = extractWithTreeSitter(grammar, text, Buffer.byteLength(text), { maxBytes: TREE_SITTER_MAX_BYTES, budgetMs: TREE_SITTER_BUDGET_MS });
      assert.ok(out.ok);
      return out.extraction;
    },
  ],
];

for (const [pathName, extract] of PATHS) {
  for (const f of FIXTURES) {
    test(`${pathName}, ${f.language}: the fixture's definitions and imports are found at their lines`, async () => {
      const e = await extract(f.language, f.source);
      const found = e.symbols.map((s) => `${s.name}@${s.line}`);
      for (const want of f.defs) assert.ok(found.includes(want), `missing ${want}; found ${found.join(', ')}`);
      for (const s of e.symbols) assert.equal(typeof s.exported, 'boolean');
      assert.deepEqual(e.imports.map((i) => i.module).sort(), [...f.imports].sort());
    });
  }
}
