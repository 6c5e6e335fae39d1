import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { connectGardener } from './helpers/mcp-client.js';

const CHARS_PER_TOKEN = 4;
const BUDGETS = [200, 500, 1000, 1500, 3000, 8000];

/** Many files that all match the task, each with many symbols: more than any budget holds. */
function crowdedRepo(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const fns = Array.from({ length: 12 }, (_, k) => `export function parseConfigPart${i}x${k}(input: string): string {\n  return input.trim();\n}\n`);
    files[`src/config/parse-config-${i}.ts`] = `// parse config ${i}\n${fns.join('\n')}`;
  }
  return files;
}

async function textOf(c: Awaited<ReturnType<typeof connectGardener>>, name: string, args: Record<string, unknown>) {
  const r = (await c.client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: unknown;
  };
  return { isError: r.isError === true, text: r.content[0]!.text, structured: r.structuredContent };
}

test('delegate and boot_memory keep their token budget in the text the agent receives', async () => {
  const repo = await makeGitRepo(crowdedRepo(60));
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
  try {
    assert.equal((await c.call('ingest')).isError, false);
    for (let i = 0; i < 40; i++) {
      const r = await c.call('remember', {
        text: `parse config note ${i}: the config parser trims its input and keeps comments; see part ${i}`,
        tags: ['config', 'parser'],
        files: [`src/config/parse-config-${i}.ts`],
        pinned: i % 3 === 0,
      });
      assert.equal(r.isError, false, JSON.stringify(r.value));
    }
    for (const budget of BUDGETS) {
      const d = await textOf(c, 'delegate', { task: 'parse config input trim', budget_tokens: budget });
      assert.equal(d.isError, false, d.text);
      assert.ok(d.text.length <= budget * CHARS_PER_TOKEN, `delegate at ${budget} tokens sent ${d.text.length} characters`);
      const b = await textOf(c, 'boot_memory', { budget_tokens: budget });
      assert.equal(b.isError, false, b.text);
      assert.ok(b.text.length <= budget * CHARS_PER_TOKEN, `boot_memory at ${budget} tokens sent ${b.text.length} characters`);
    }
    // A large budget is used, not wasted: the pack holds files and notes.
    const big = JSON.parse((await textOf(c, 'delegate', { task: 'parse config input trim', budget_tokens: 8000 })).text);
    assert.ok(big.files.length >= 5, `a large budget packs several files, got ${big.files.length}`);
    assert.ok(big.notes.length >= 1, 'a large budget packs notes');
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('every tool answer is compact JSON, with structured content where the tool declares an output schema', async () => {
  const repo = await makeGitRepo(crowdedRepo(3));
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir });
  try {
    assert.equal((await c.call('ingest')).isError, false);
    const { tools } = await c.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const calls: [string, Record<string, unknown>][] = [
      ['seek', { query: 'parseConfigPart1x1' }],
      ['north', {}],
      ['boot_memory', {}],
      ['delegate', { task: 'parse config' }],
      ['session_handshake', {}],
      ['alerts_list', {}],
      ['seek', {}],
    ];
    for (const [name, args] of calls) {
      const r = await textOf(c, name, args);
      assert.ok(!/\n\s/.test(r.text), `${name} answers without indentation: ${r.text.slice(0, 80)}`);
      const value = JSON.parse(r.text);
      if (!r.isError && byName.get(name)?.outputSchema) assert.deepEqual(r.structured, value, `${name}: structuredContent is the text's value`);
    }
    for (const name of ['seek', 'north', 'boot_memory', 'delegate']) {
      assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, `${name} is read-only`);
      assert.ok(byName.get(name)?.outputSchema, `${name} declares its output schema`);
    }
    assert.equal(byName.get('forget')?.annotations?.destructiveHint, true, 'forget is destructive');
    assert.equal(byName.get('remember')?.annotations?.readOnlyHint, false, 'remember writes');
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});
