/**
 * `gardener mcp` as a proxy loads node built-ins, src/wire/ and src/timers.ts only, never the SDK, zod, SQLite
 * or a worker (those come with the in-process fallback): checked on the built files, following
 * every static import from the proxy. (What src/cli/commands/mcp.ts loads before the proxy is
 * the dial's, and says so in its own header.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const ALLOWED = ['transports/proxy/', 'wire/', 'timers.js'];

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

test('the proxy and everything it imports are node built-ins, src/transports/proxy/, src/wire/ or src/timers', () => {
  const seen = new Set<string>();
  const queue = [join(SRC, 'transports', 'proxy', 'mcp-proxy.js')];
  const bad: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('node:')) continue;
      if (!spec.startsWith('.')) {
        bad.push(`${relative(SRC, file)} imports ${spec}`);
        continue;
      }
      const target = resolve(dirname(file), spec);
      const rel = relative(SRC, target);
      if (!ALLOWED.some((a) => rel.startsWith(a))) bad.push(`${relative(SRC, file)} imports ${rel}`);
      else queue.push(target);
    }
  }
  assert.deepEqual(bad, []);
  assert.ok([...seen].some((f) => f.endsWith('line-framer.js')), 'the walk reached the framer');
});
