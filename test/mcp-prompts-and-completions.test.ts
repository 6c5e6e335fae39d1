/**
 * Prompts (issue 28): each one fetched over stdio from a real `gardener mcp`, its message built
 * from the tools' answers on this repository, within its budget, saying how fresh it is; and
 * completion/complete for their arguments and the resource templates' variables.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSurface, NOTE_TEXT, type SurfaceSession } from './helpers/mcp-surface-repo.js';

let s: SurfaceSession;
before(async () => {
  s = await openSurface();
});
after(async () => {
  await s?.close();
});

const FRESHNESS = /Freshness: map fresh as of \d{4}-\d\d-\d\dT/;
/** MAX_PROMPT_CHARS (src/mcp/prompts.ts). */
const MAX_PROMPT_CHARS = 12_000;

async function promptText(name: string, args?: Record<string, string>): Promise<string> {
  const r = await s.c.client.getPrompt({ name, arguments: args });
  assert.equal(r.messages.length, 1, `${name}: one message`);
  const m = r.messages[0]!;
  assert.equal(m.role, 'user');
  assert.equal(m.content.type, 'text');
  const text = (m.content as { text: string }).text;
  assert.ok(text.length <= MAX_PROMPT_CHARS, `${name}: ${text.length} characters is within the budget`);
  assert.match(text, FRESHNESS, `${name} says how fresh the map is`);
  return text;
}

test('prompts/list offers orient, who-uses, before-commit and context, each described, with their arguments', async () => {
  const { prompts } = await s.c.client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['orient', 'who-uses', 'before-commit', 'context']);
  for (const p of prompts) assert.ok(p.description && p.description.length > 20, `${p.name} is described`);
  const whoUses = prompts.find((p) => p.name === 'who-uses')!;
  assert.deepEqual(whoUses.arguments?.map((a) => [a.name, a.required]), [['name', true], ['path', false]]);
});

test('orient gives the layout and the pinned note', async () => {
  const text = await promptText('orient');
  assert.match(text, /## Layout \(north\)/);
  assert.match(text, /"files":[1-9]/, `north's file count is in the text: ${text.slice(0, 400)}`);
  assert.ok(text.includes(NOTE_TEXT), 'the pinned note is in the text');
  assert.match(text, new RegExp(`- \\[${s.noteId}\\] \\(pinned, config\\)`));
});

test('who-uses names the definition, its uses in the CLI and the test, and the tests to run', async () => {
  const text = await promptText('who-uses', { name: 'parseConfig' });
  assert.ok(text.includes('src/config.ts'), 'the definition');
  assert.ok(text.includes('src/cli.ts'), 'a use');
  assert.match(text, /## What may break \(impact\)[\s\S]*"tests":\["test\/config\.test\.ts"\]/, 'the test to run');
});

test('who-uses without its name is refused as invalid params', async () => {
  await assert.rejects(s.c.client.getPrompt({ name: 'who-uses', arguments: {} }), (err: Error & { code?: number }) => {
    assert.equal(err.code, -32602);
    assert.match(err.message, /"name" is required/);
    return true;
  });
});

test('an unknown prompt is refused as invalid params, naming the ones there are', async () => {
  await assert.rejects(s.c.client.getPrompt({ name: 'nope' }), (err: Error & { code?: number }) => {
    assert.equal(err.code, -32602);
    assert.match(err.message, /orient, who-uses, before-commit, context/);
    return true;
  });
});

test('before-commit lists the changed file, the test to run and the note tied to it', async () => {
  s.repo.write('src/config.ts', `${'// a change\n'}${(await import('./helpers/mcp-surface-repo.js')).FILES['src/config.ts']}`);
  const text = await promptText('before-commit');
  assert.match(text, /## Changed since HEAD \(1\)\n- src\/config\.ts\n/);
  assert.match(text, /## Tests to run \(1\)\n- test\/config\.test\.ts\n/);
  assert.match(text, /## May break[^\n]*\n[\s\S]*- src\/cli\.ts \(distance 1\)/);
  assert.match(text, new RegExp(`## Notes to review \\(1\\)\\n- \\[${s.noteId}\\]`));
});

test('context packs the files that rank for a task', async () => {
  const text = await promptText('context', { task: 'change how parseConfig reads the config' });
  assert.match(text, /^Task: change how parseConfig reads the config/);
  assert.ok(text.includes('src/config.ts'));
});

test('completion/complete gives definition names and paths from the map for a prefix, ranked and bounded', async () => {
  const names = await s.c.client.complete({ ref: { type: 'ref/prompt', name: 'who-uses' }, argument: { name: 'name', value: 'parse' } });
  assert.deepEqual(names.completion.values, ['parseArgs', 'parseConfig']);
  const lower = await s.c.client.complete({ ref: { type: 'ref/prompt', name: 'who-uses' }, argument: { name: 'name', value: 'PARSEc' } });
  assert.deepEqual(lower.completion.values, ['parseConfig'], 'the prefix is matched without case');
  const paths = await s.c.client.complete({ ref: { type: 'ref/prompt', name: 'who-uses' }, argument: { name: 'path', value: 'src/c' } });
  assert.deepEqual(paths.completion.values, ['src/cli.ts', 'src/config.ts']);
  const outline = await s.c.client.complete({ ref: { type: 'ref/resource', uri: 'gardener://outline/{+path}' }, argument: { name: 'path', value: 'test/' } });
  assert.deepEqual(outline.completion.values, ['test/config.test.ts']);
  const uses = await s.c.client.complete({ ref: { type: 'ref/resource', uri: 'gardener://uses/{name}' }, argument: { name: 'name', value: 'chec' } });
  assert.deepEqual(uses.completion.values, ['checkConfig']);
  for (const r of [names, paths]) assert.ok(r.completion.values.length <= 100);
});

test("who-uses' path, completed after its name, lists the files that define the name", async () => {
  const defining = await s.c.client.complete({
    ref: { type: 'ref/prompt', name: 'who-uses' },
    argument: { name: 'path', value: '' },
    context: { arguments: { name: 'checkConfig' } },
  });
  assert.deepEqual(defining.completion.values, ['test/config.test.ts']);
});

test('completion for a reference it does not know is an empty list, not an error', async () => {
  for (const ref of [{ type: 'ref/prompt' as const, name: 'test_prompt_with_arguments' }, { type: 'ref/resource' as const, uri: 'test://template/{id}' }]) {
    const r = await s.c.client.complete({ ref, argument: { name: 'arg1', value: 'test' } });
    assert.deepEqual(r.completion.values, []);
  }
  const freeText = await s.c.client.complete({ ref: { type: 'ref/prompt', name: 'context' }, argument: { name: 'task', value: 'pa' } });
  assert.deepEqual(freeText.completion.values, [], 'a free-text argument has nothing to complete');
});
