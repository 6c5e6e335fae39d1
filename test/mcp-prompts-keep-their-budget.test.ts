/**
 * A prompt whose tools answer more than its budget is cut to MAX_PROMPT_CHARS from its body,
 * saying so, and still ends with the line that says how fresh the map is (issue 28: each
 * prompt's text fits a budget and says how fresh it is). Fake tools through the real seam.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool, type ToolDef } from '../src/dispatch/index.js';
import { getPrompt, MAX_PROMPT_CHARS } from '../src/mcp/index.js';
import type { Session } from '../src/session/index.js';

const FRESHNESS = { fresh_as_of: '2026-12-01T10:00:00.000Z', last_tick_at: null, backlog: 7, pending: ['src/f1.ts'], armed: false };

function sessionWith(tools: ToolDef[]): Session {
  return { toolsByName: new Map(tools.map((t) => [t.name, t])), isListed: () => true, trafficTick: () => {} } as unknown as Session;
}

const answering = (name: string, value: unknown) =>
  defineTool({ name, description: name, traffic: 'skip', input: z.object({}).passthrough(), handler: async () => value });

test('a prompt over its budget is cut from its body and still ends with its freshness line', async () => {
  const many = Array.from({ length: 5000 }, (_, i) => ({ path: `src/f${i}.ts`, line: i, caller: `caller${i}` }));
  const session = sessionWith([
    answering('refs', { name: 'parseConfig', definitions: [{ path: 'src/config.ts', line: 3 }], references: many, freshness: FRESHNESS }),
    answering('impact', { files: many.map((m) => ({ path: m.path, distance: 1 })), tests: [], freshness: FRESHNESS }),
  ]);
  const r = await getPrompt(session, 'who-uses', { name: 'parseConfig' }, new AbortController().signal);
  const text = (r.messages[0]!.content as { text: string }).text;
  assert.ok(text.length <= MAX_PROMPT_CHARS, `${text.length} characters`);
  assert.ok(text.length > MAX_PROMPT_CHARS - 300, 'the budget is used, not wasted');
  assert.match(text, /… \(cut at \d+ characters; ask the tool for the rest\)\n/);
  assert.match(text.split('\n').at(-1)!, /^Freshness: map fresh as of 2026-12-01T10:00:00\.000Z; 7 paths wait in the backlog; not armed .*src\/f1\.ts\.$/);
});

test('a prompt within its budget is not cut', async () => {
  const session = sessionWith([
    answering('refs', { name: 'tiny', definitions: [], references: [], freshness: FRESHNESS }),
    answering('impact', { files: [], tests: [], freshness: FRESHNESS }),
  ]);
  const r = await getPrompt(session, 'who-uses', { name: 'tiny' }, new AbortController().signal);
  const text = (r.messages[0]!.content as { text: string }).text;
  assert.doesNotMatch(text, /cut at/);
  assert.match(text.split('\n').at(-1)!, /^Freshness: /);
});
