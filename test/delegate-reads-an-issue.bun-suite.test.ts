/**
 * delegate reads an issue report as an engineer does (issue 52): a path its traceback names and
 * a message it quotes word for word raise the file that holds them into the answer's head, a
 * file that defines the names it quotes ranks above the files that only use them, and the
 * answer says which clue each file matched. Each is one list among the others, not a verdict:
 * on real issues (docs/recall.md) the frame a traceback names is often not where the fix goes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMappedSession } from './helpers/session.js';

/**
 * Pages that talk at length about what the issues are about (loading and rendering templates)
 * and call the names they quote, without defining any of it: a plain ranking of words puts them
 * first, as a repository's many callers of a function outnumber its one definition.
 */
const chatter = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [
  `src/pages/page${i}.ts`,
  `import { resolveTemplateLoader, TemplateCache } from '../engine/resolve.js';\n// Load the template and render the template; the template loader caches each template it loads.\n// When loading fails the page renders the fallback template instead of the loaded template.\nexport function page${i}() {\n  const cache = new TemplateCache();\n  const loader = resolveTemplateLoader(cache, 'page${i}');\n  return loader.load('template') ?? resolveTemplateLoader(cache, 'fallback').load('template');\n}\n`,
]));

async function withIssueRepo(run: (dispatch: (task: string) => Promise<{ path: string; clues?: { path?: string; defines?: string[]; message?: true } }[]>) => Promise<void>) {
  await withMappedSession(
    {
      ...chatter,
      'src/engine/resolve.ts': 'export class TemplateCache { get(k: string) { return k; } }\nexport function resolveTemplateLoader(c: TemplateCache, name: string) { return { load: (x: string) => c.get(name + x) }; }\n',
      'src/engine/lexer.ts': 'export function nextToken(src: string, at: number) { return src[at]; }\n',
      'src/engine/render.ts': 'export function render(t: string) { return t; }\n',
      'src/engine/scan.ts': "export function scan(src: string, line: number) {\n  if (!/^\\w+$/.test(src)) throw new Error(`marker on line #${line} must contain only alpha-numeric characters, dashes and underscores`);\n}\n",
    },
    (s) => run(async (task) => (await s.dispatch('delegate', { task })).value.files),
  );
}

/** Where `path` stands in the answer (1-based), 0 when absent. */
const rankOf = (files: { path: string }[], path: string) => files.findIndex((f) => f.path === path) + 1;
const HEAD = 5;

test('a path a traceback names raises that file into the head of the answer, and the answer says so', async () => {
  await withIssueRepo(async (delegate) => {
    const files = await delegate('Template loading fails after the upgrade\n\n```\nError: boom\n    at /srv/app/src/engine/lexer.ts:1:60\n```\nLoading any template fails since the upgrade; the page renders nothing.');
    const at = rankOf(files, 'src/engine/lexer.ts');
    assert.ok(at >= 1 && at <= HEAD, JSON.stringify(files.map((f) => f.path)));
    assert.match(files[at - 1]!.clues?.path ?? '', /src\/engine\/lexer\.ts$/, 'the clue is the path as the traceback wrote it');
  });
});

test('the file that defines the names an issue quotes ranks above the files that only use them', async () => {
  await withIssueRepo(async (delegate) => {
    const files = await delegate('Template loading misses the cache\n\n`resolveTemplateLoader` returns a loader whose `TemplateCache` misses every template, so each page loads its template again.');
    assert.equal(files[0]!.path, 'src/engine/resolve.ts', JSON.stringify(files.map((f) => f.path)));
    assert.deepEqual(files[0]!.clues?.defines?.sort(), ['resolvetemplateloader', 'templatecache']);
  });
});

test('the file that holds a quoted error message word for word rises into the head of the answer', async () => {
  await withIssueRepo(async (delegate) => {
    const files = await delegate('Loading a template with a marker fails\n\n```\nError: template: marker on line #3 must contain only alpha-numeric characters, dashes and underscores; got >>\n```\nThe page cannot load the template.');
    const at = rankOf(files, 'src/engine/scan.ts');
    assert.ok(at >= 1 && at <= HEAD, JSON.stringify(files.map((f) => f.path)));
    assert.equal(files[at - 1]!.clues?.message, true);
  });
});
