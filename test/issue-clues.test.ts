/**
 * An issue report read as an engineer reads one (src/ranking/issue-clues.ts): the paths of its
 * tracebacks in each language's form, the names it quotes from code, its title, and nothing
 * of the template's noise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issueClues, looksLikeIssue, withoutNoise } from '../src/ranking/issue-clues.js';

test('traceback frames of five languages name paths, relative to the package that holds them', () => {
  const text = [
    'Crash when loading a template',
    '```',
    'Traceback (most recent call last):',
    '  File "/usr/lib/python3.11/site-packages/jinjax/loaders/base.py", line 41, in load',
    '    at com.example.render.TemplateCache.lookup(TemplateCache.java:88)',
    '    at /home/me/go/pkg/mod/github.com/acme/web@v1.9.1/binding/form_mapping.go:123 +0x1f',
    "thread 'main' panicked at src/parser/lexer.rs:200:9",
    '  /gems/rubocop-1.60.0/lib/rubocop/cop/style/redundant_freeze.rb:31:in `on_send`',
    '```',
  ].join('\n');
  const c = issueClues(text);
  for (const p of ['jinjax/loaders/base.py', 'com/example/render/TemplateCache.java', 'binding/form_mapping.go', 'src/parser/lexer.rs', 'lib/rubocop/cop/style/redundant_freeze.rb']) {
    assert.ok(c.paths.includes(p), `${p} in ${JSON.stringify(c.paths)}`);
  }
  assert.equal(c.title, 'Crash when loading a template');
});

test('names come from code spans, code blocks and code-shaped prose; a dotted pair gives both names', () => {
  const c = issueClues('`URL::previous()` ignores the fallback\n\nCalling QuerySet.filter with parseConfig() and max_retries set:\n```js\nconst out = buildFullPath(config.baseURL, url);\n```\nplain words here');
  for (const n of ['previous', 'QuerySet', 'filter', 'parseConfig', 'max_retries', 'buildFullPath', 'baseURL']) assert.ok(c.names.includes(n), `${n} in ${JSON.stringify(c.names)}`);
  for (const n of ['plain', 'words', 'here', 'const', 'Calling']) assert.ok(!c.names.includes(n), `${n} is not a name: ${JSON.stringify(c.names)}`);
  assert.equal(c.title, '`URL::previous()` ignores the fallback');
});

test('a template\'s noise is dropped: links, images, HTML comments, ticked checklists', () => {
  const clean = withoutNoise('See https://example.invalid/x/y.js and ![shot](https://img.invalid/a.png)\n<!-- fill this in -->\n- [X] I searched existing issues\n[docs](https://d.invalid/page) <details>kept</details>');
  assert.doesNotMatch(clean, /example\.invalid|img\.invalid|fill this in|searched existing|d\.invalid|<details>/);
  assert.match(clean, /kept/);
  assert.deepEqual(issueClues('A\nsee https://example.invalid/src/app.ts for more').paths, [], 'a link is not a path');
});

test('a one-line task is not read as an issue; several lines or a code span are', () => {
  assert.equal(looksLikeIssue('Quote file names with spaces in the zsh completions script'), false);
  assert.equal(looksLikeIssue('Title\n\nbody'), true);
  assert.equal(looksLikeIssue('`parseConfig` drops keys'), true);
});

test('messages a program printed are kept whole, from blocks, spans, quotes and prose lines', () => {
  const c = issueClues('Upload fails\n\n```\n$ run upload\nError: Request body larger than maxBodyLength limit\n```\n> error calling GroupByParam: there is no such param\nIt says "could not resolve the given host name" and `ok`.');
  assert.ok(c.messages.includes('Error: Request body larger than maxBodyLength limit'), JSON.stringify(c.messages));
  assert.ok(c.messages.includes('error calling GroupByParam: there is no such param'), JSON.stringify(c.messages));
  assert.ok(c.messages.includes('could not resolve the given host name'), JSON.stringify(c.messages));
  assert.ok(!c.messages.includes('ok') && !c.messages.includes('$ run upload'), 'a short span or a command is no message');
});
