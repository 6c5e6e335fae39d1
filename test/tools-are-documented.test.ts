/**
 * docs/tools.md and the tool list agree both ways, like docs/errors.md and the error codes:
 * every tool has a `###` heading with its input fields (`x?` an optional one, `a | b` one of
 * two), every heading names a tool, and the ticks table lists each tool once, under its
 * traffic class.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { TOOLS } from '../src/tools/index.js';
import type { TrafficClass } from '../src/dispatch/index.js';

const root = new URL('../..', import.meta.url).pathname;
const doc = readFileSync(join(root, 'docs', 'tools.md'), 'utf8');
const lines = doc.split('\n');

/** `name {a, b?, c | d}` in the `###` headings: each tool's fields, `?` on the optional ones. */
const documented = new Map<string, string[]>();
for (const line of lines.filter((l) => l.startsWith('### '))) {
  for (const [, name, fields] of line.matchAll(/`([a-z_]+) \{([^}]*)\}/g)) {
    const parts = fields!.split(',').map((f) => f.trim()).filter(Boolean);
    // `a | b`: one of the two, so each alone is optional.
    const names = parts.flatMap((p) => (p.includes('|') ? p.split('|').map((a) => `${a.trim().replace(/\?$/, '')}?`) : [p]));
    documented.set(name!, names.sort());
  }
}

const fieldsOf = (input: z.ZodTypeAny): string[] =>
  Object.entries((input as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>)
    .map(([k, v]) => `${k}${v.isOptional() ? '?' : ''}`)
    .sort();

test('every tool has a heading in docs/tools.md naming its input fields', () => {
  const missing = TOOLS.filter((t) => !documented.has(t.name)).map((t) => t.name);
  assert.deepEqual(missing, [], 'tools without a heading in docs/tools.md');
  for (const t of TOOLS) assert.deepEqual(documented.get(t.name), fieldsOf(t.input), `docs/tools.md's fields of ${t.name}`);
});

test('every tool docs/tools.md names is in the tool list', () => {
  const names = new Set(TOOLS.map((t) => t.name));
  assert.deepEqual([...documented.keys()].filter((n) => !names.has(n)), []);
});

test("the ticks table lists each tool once, under its traffic class", () => {
  const CLASS_OF_ROW: Record<string, TrafficClass> = { recall: 'recall', 'skip-list': 'skip', heavy: 'heavy', other: 'tick' };
  const listed = new Map<string, TrafficClass[]>();
  for (const line of lines) {
    const cells = line.split('|').map((c) => c.trim());
    const cls = CLASS_OF_ROW[cells[1] ?? ''];
    if (!cls || cells.length < 4) continue;
    for (const [, name] of cells[2]!.matchAll(/`([a-z_]+)`/g)) listed.set(name!, [...(listed.get(name!) ?? []), cls]);
  }
  const expected = new Map(TOOLS.map((t) => [t.name, [t.traffic]]));
  assert.deepEqual(Object.fromEntries([...listed].sort()), Object.fromEntries([...expected].sort()));
});
