import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { connectGardener } from './helpers/mcp-client.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { withoutTypeArrays } from '../src/transports/tool-schemas.js';

/** Every place in a schema where `type` is an array, as a path. Values (enum, const, default) are data, not schemas. */
function typeArraysIn(schema: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => typeArraysIn(s, `${path}[${i}]`, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'type' && Array.isArray(value)) found.push(`${path}: ${JSON.stringify(value)}`);
      if (!['enum', 'const', 'default', 'examples'].includes(key)) typeArraysIn(value, `${path}.${key}`, found);
    }
  }
  return found;
}

/** True when some value inside holds a null. */
function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (value && typeof value === 'object') return Object.values(value).some(holdsNull);
  return false;
}

test('no listed tool schema has a type array, so single-type dialects (Gemini) take every tool', async () => {
  const repo = await makeGitRepo({
    'src/parse.ts': 'export function parseConfig(input: string): string {\n  return input.trim();\n}\n',
    'src/use.ts': "import { parseConfig } from './parse.js';\n\nexport const value = parseConfig(' x ');\n",
    'README.md': 'The config parser trims whitespace.\n',
  });
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  try {
    const armed = c.nextListChanged();
    assert.equal((await c.call('ingest')).isError, false);
    await armed; // the late verbs (daemon_*, changes) are listed too
    const { tools } = await c.client.listTools();
    assert.ok(tools.some((t) => t.name === 'changes'), 'the late verbs are in the list');
    const found: string[] = [];
    for (const t of tools) {
      typeArraysIn(t.inputSchema, `${t.name}.inputSchema`, found);
      if (t.outputSchema) typeArraysIn(t.outputSchema, `${t.name}.outputSchema`, found);
    }
    assert.deepEqual(found, [], 'no schema spells a union of types as a type array');
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('answers with null fields still validate against the published output schemas', async () => {
  const repo = await makeGitRepo({
    'src/parse.ts': 'export function parseConfig(input: string): string {\n  return input.trim();\n}\n',
    'src/use.ts': "import { parseConfig } from './parse.js';\n\nexport const value = parseConfig(' x ');\n",
    'README.md': 'The config parser trims whitespace.\n',
  });
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  try {
    assert.equal((await c.call('ingest')).isError, false);
    const { tools } = await c.client.listTools(); // the client caches each output schema's validator from this list
    const declared = new Set(tools.filter((t) => t.outputSchema).map((t) => t.name));
    const calls: [string, Record<string, unknown>][] = [
      ['seek', { query: 'whitespace' }], // a text hit: symbol and kind are null
      ['seek', { query: 'parseConfig' }],
      ['north', {}],
      ['boot_memory', {}],
      ['delegate', { task: 'parse config' }],
      ['refs', { name: 'parseConfig' }],
      ['impact', { path: 'src/parse.ts' }],
    ];
    let nulls = 0;
    for (const [name, args] of calls) {
      assert.ok(declared.has(name), `${name} declares an output schema`);
      // The SDK's client checks structuredContent against the listed outputSchema and throws when it does not fit.
      const r = (await c.client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: unknown; content: { text: string }[] };
      assert.notEqual(r.isError, true, `${name}: ${r.content[0]?.text}`);
      assert.ok(r.structuredContent, `${name} sends structured content`);
      if (holdsNull(r.structuredContent)) nulls++;
    }
    assert.ok(nulls > 0, 'some answer held a null, so the nullable branches were exercised');

    // The rewrite keeps the constraint: a nullable string still refuses a number.
    const seekSchema = tools.find((t) => t.name === 'seek')!.outputSchema!;
    const check = new AjvJsonSchemaValidator().getValidator(seekSchema as never);
    const answer = (await c.client.callTool({ name: 'seek', arguments: { query: 'whitespace' } })).structuredContent as any;
    assert.equal(answer.code[0].symbol, null, 'a text hit names no symbol');
    assert.equal(check(answer).valid, true);
    assert.equal(check({ ...answer, code: [{ ...answer.code[0], symbol: 5 }] }).valid, false, 'symbol is a string or null, not a number');
    assert.equal(check({ ...answer, freshness: { ...answer.freshness, fresh_as_of: 5 } }).valid, false, 'fresh_as_of is a string or null, not a number');
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
});

test('the rewrite accepts exactly the values the type array did', () => {
  const validator = new AjvJsonSchemaValidator();
  const schemas = [
    { type: ['string', 'null'], description: 'when' },
    { type: ['string', 'integer', 'null'], minLength: 2, minimum: 0 },
    { type: ['string', 'number'], enum: ['ab', 3, 'c'] },
    { type: 'object', properties: { at: { type: ['array', 'null'], items: { type: ['boolean', 'null'] }, minItems: 1 } }, required: ['at'] },
  ];
  const values = [null, '', 'a', 'ab', 'c', -1, 0, 3, 2.5, true, [], [null], [true, 'x'], {}, { at: null }, { at: [] }, { at: [false, null] }, { at: ['x'] }];
  for (const schema of schemas) {
    const rewritten = withoutTypeArrays(schema);
    assert.deepEqual(typeArraysIn(rewritten, 'schema', []), [], JSON.stringify(rewritten));
    const before = validator.getValidator(schema as never);
    const after = validator.getValidator(rewritten as never);
    for (const v of values) assert.equal(after(v).valid, before(v).valid, `${JSON.stringify(v)} against ${JSON.stringify(schema)} rewritten as ${JSON.stringify(rewritten)}`);
  }
  assert.deepEqual(withoutTypeArrays(schemas[0]), { description: 'when', anyOf: [{ type: 'string' }, { type: 'null' }] }, 'the annotation stays on the node');
  assert.deepEqual(withoutTypeArrays(schemas[1]), { anyOf: [{ type: 'string', minLength: 2 }, { type: 'integer', minimum: 0 }, { type: 'null' }] }, 'each branch keeps the keywords of its own type');
});
