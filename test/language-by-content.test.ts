/**
 * A file's language when the extension cannot say: a `.h` is C, C++ or Objective-C by what it
 * holds, and an extensionless script is named by its shebang. The extension wins everywhere
 * else (a `.py` with a bash shebang is still Python).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { languageOfFile } from '../src/ingest/language.js';

test('a .h holding C++ or Objective-C is parsed as what it holds, plain C otherwise', () => {
  assert.equal(languageOfFile('inc/a.h', '#pragma once\nint f(void);\nstruct s { int x; };\n'), 'c');
  assert.equal(languageOfFile('inc/a.h', '#pragma once\nnamespace n {\nclass K {\n public:\n  void m();\n};\n}\n'), 'cpp');
  assert.equal(languageOfFile('inc/a.h', '#include <vector>\ntemplate <typename T> T id(T x);\n'), 'cpp');
  assert.equal(languageOfFile('inc/a.h', '#import <Foundation/Foundation.h>\n@interface A : NSObject\n@end\n'), 'objc');
  // A C header that only mentions the words in a comment stays C.
  assert.equal(languageOfFile('inc/a.h', '/* a class of helpers, see namespace docs */\nint f(void);\n'), 'c');
});

test('an extensionless script is named by its shebang', () => {
  assert.equal(languageOfFile('bin/deploy', '#!/bin/bash\nset -e\n'), 'shell');
  assert.equal(languageOfFile('bin/tool', '#!/usr/bin/env python3\nprint(1)\n'), 'python');
  assert.equal(languageOfFile('bin/tool', '#!/usr/bin/env -S node --no-warnings\nconsole.log(1)\n'), 'javascript');
  assert.equal(languageOfFile('bin/tool', '#!/usr/bin/ruby -w\nputs 1\n'), 'ruby');
  assert.equal(languageOfFile('bin/tool', '#!/usr/bin/perl\n'), 'perl');
  assert.equal(languageOfFile('bin/tool', 'no shebang here\n'), null);
  assert.equal(languageOfFile('bin/tool', '#!/opt/unknown-interpreter\n'), null);
});

test('the extension wins over a shebang', () => {
  assert.equal(languageOfFile('tool.py', '#!/bin/bash\n'), 'python');
  assert.equal(languageOfFile('x.rb', '#!/usr/bin/env python\n'), 'ruby');
});
