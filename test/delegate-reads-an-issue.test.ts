/**
 * delegate reads an issue report as an engineer does (issue 52): a path its traceback names
 * puts that file first, a file that defines the names it quotes ranks above files that only
 * use them, and the answer says which clue each file matched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { makeTestBrains } from './helpers/brains.js';
import { makeTestSession } from './helpers/session.js';
import { runTick } from '../src/vigil/index.js';

/**
 * Files that talk at length about what the issues name (templates, loaders, the lexer's next
 * token), with those words in their paths too, without defining any of it: a plain ranking of
 * words puts them first.
 */
const chatter = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [
  `src/pages/template_loader_lexer_${i}.ts`,
  `import { resolveTemplateLoader, TemplateCache } from '../engine/resolve.js';\nimport { nextToken } from '../engine/lexer.js';\n// load the template, render the template, cache the template: the template loader fails to load\n// the lexer's nextToken, the template loader's TemplateCache, resolveTemplateLoader again\nexport function templateLoaderLexerPage${i}() {\n  const cache = new TemplateCache();\n  nextToken('template', ${i});\n  return resolveTemplateLoader(cache, 'page${i}').load(resolveTemplateLoader(cache, 'template').load('template'));\n}\n`,
]));

async function withIssueRepo(run: (dispatch: (task: string) => Promise<{ path: string; clues?: { path?: string; defines?: string[] } }[]>) => Promise<void>) {
  const repo = await makeGitRepo({
    ...chatter,
    'src/engine/resolve.ts': 'export class TemplateCache { get(k: string) { return k; } }\nexport function resolveTemplateLoader(c: TemplateCache, name: string) { return { load: (x: string) => c.get(name + x) }; }\n',
    'src/engine/lexer.ts': 'export function nextToken(src: string, at: number) { return src[at]; }\n',
    'src/engine/render.ts': 'export function render(t: string) { return t; }\n',
  });
  const t = await makeTestBrains();
  try {
    const { brain } = await t.brains.ensure(repo.dir);
    await runTick(brain, { inventory: true });
    const s = await makeTestSession(t.brains, repo.dir);
    try {
      await run(async (task) => (await s.dispatch('delegate', { task })).value.files);
    } finally {
      await s.close();
    }
  } finally {
    await t.cleanup();
    await repo.cleanup();
  }
}

test('a path a traceback names puts that file first, and the answer says so', async () => {
  await withIssueRepo(async (delegate) => {
    const files = await delegate('Template loader fails to load the template\n\n```\nError: boom\n    at nextToken (/srv/app/src/engine/lexer.ts:1:60)\n```\nThe template loader cannot load any template since the upgrade.');
    assert.equal(files[0]!.path, 'src/engine/lexer.ts', JSON.stringify(files.map((f) => f.path)));
    assert.match(files[0]!.clues?.path ?? '', /src\/engine\/lexer\.ts$/, 'the clue is the path as the traceback wrote it');
  });
});

test('the file that defines the names an issue quotes ranks above the files that only use them', async () => {
  await withIssueRepo(async (delegate) => {
    const files = await delegate('Template loader fails to load the template\n\n`resolveTemplateLoader` returns a loader whose `TemplateCache` misses every template, so loading the template fails.');
    assert.equal(files[0]!.path, 'src/engine/resolve.ts', JSON.stringify(files.map((f) => f.path)));
    assert.deepEqual(files[0]!.clues?.defines?.sort(), ['resolvetemplateloader', 'templatecache']);
  });
});
