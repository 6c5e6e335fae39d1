import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { connectGardener } from './helpers/mcp-client.js';
import { TOOLS } from '../src/tools/index.js';
import { listedTool, MAX_TOOL_LIST_CHARS } from '../src/transports/tool-schemas.js';

/** What a session pays for the tool list: name, description, input and output schemas of every tool. */
function listChars(): number {
  return TOOLS.map(listedTool).reduce(
    (sum, t) => sum + t.name.length + t.description.length + JSON.stringify(t.inputSchema).length + (t.outputSchema ? JSON.stringify(t.outputSchema).length : 0),
    0,
  );
}

/** Every string or array node of a schema that carries no bound (maxLength / maxItems); enums and consts are bounded by their values. */
function unbounded(schema: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => unbounded(s, `${path}[${i}]`, found));
  else if (schema && typeof schema === 'object') {
    const node = schema as Record<string, unknown>;
    if (node.type === 'string' && node.enum === undefined && node.const === undefined && node.maxLength === undefined) found.push(path);
    if (node.type === 'array' && node.maxItems === undefined) found.push(path);
    for (const [key, value] of Object.entries(node)) if (!['enum', 'const', 'default', 'examples'].includes(key)) unbounded(value, `${path}.${key}`, found);
  }
  return found;
}

test('the whole tool list costs a session at most 12k characters, every tool kept', () => {
  assert.equal(MAX_TOOL_LIST_CHARS, 12_000);
  const chars = listChars();
  assert.ok(chars <= MAX_TOOL_LIST_CHARS, `tools/list is ${chars} characters (name + description + input + output schemas), over ${MAX_TOOL_LIST_CHARS}`);
  for (const seed of ['seek', 'north', 'boot_memory', 'delegate', 'remember', 'ingest', 'scan', 'daemon_start', 'daemon_status', 'skeleton', 'skeleton_candidate', 'skeleton_edit', 'skeleton_ratify']) {
    assert.ok(TOOLS.some((t) => t.name === seed), `${seed} is still a tool`);
  }
});

test('every string and array a tool takes is bounded in its listed input schema', () => {
  const found: string[] = [];
  for (const t of TOOLS) unbounded(listedTool(t).inputSchema, t.name, found);
  assert.deepEqual(found, [], `unbounded: ${found.join(', ')}`);
});

test('an argument over its bound is refused with isError naming the field', async () => {
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  try {
    const seek = listedTool(TOOLS.find((t) => t.name === 'seek')!)
      .inputSchema as unknown as { properties: { query: { maxLength: number } } };
    assert.equal(typeof seek.properties.query.maxLength, 'number', 'seek.query is bounded');
    const over = await c.call('seek', { query: 'x'.repeat(seek.properties.query.maxLength + 1) });
    assert.equal(over.isError, true);
    assert.equal(over.value.error.code, 'GDN_INVALID_ARGUMENT');
    assert.match(over.value.error.message, new RegExp(`query: too long \\(at most ${seek.properties.query.maxLength} characters\\)`));
    const scan = listedTool(TOOLS.find((t) => t.name === 'scan')!)
      .inputSchema as unknown as { properties: { paths: { maxItems: number } } };
    const many = await c.call('scan', { paths: Array.from({ length: scan.properties.paths.maxItems + 1 }, (_, i) => `f${i}`) });
    assert.equal(many.isError, true);
    assert.match(many.value.error.message, new RegExp(`paths: too long \\(at most ${scan.properties.paths.maxItems} items\\)`));
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});
