/**
 * The rooms of src/ (and workers/) import only what docs/architecture.md says they may. Read
 * from the source files, not the built ones: `import type` leaves no trace in JavaScript, and a
 * type is an edge too. A room is a folder under src/ (each transport under src/transports/ is
 * its own room, the shared top of src/transports/ another), a file at the top of src/
 * (errors, log, timers, version, index), workers/ or bench/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Edge {
  /** The importing file and the imported one, relative to the repository. */
  from: string;
  to: string;
  fromRoom: string;
  toRoom: string;
}

/** Known edges the rules refuse, each with the issue that removes it. Not required to occur. */
const KNOWN_EXCEPTIONS: { from: string; to: string; why: string }[] = [];

/**
 * Rooms that import nothing but each other: any room may take them. paths/ is here because
 * detect and ingest (leaves, run in workers) take it: it must stay as small as they are.
 */
const GROUND = ['errors', 'log', 'timers', 'version', 'wire', 'paths', 'heap-growth', 'bun-heap'];
const TRANSPORTS = (room: string) => room === 'transports' || room.startsWith('transports/');

interface Rule {
  name: string;
  /** True for an edge the rule refuses. */
  refuses: (e: Edge) => boolean;
}

const RULES: Rule[] = [
  {
    name: 'the page (src/page/) is a room of its own: it imports only the ground, and only the owner mounts it (transports see it through PageMount)',
    refuses: (e) => (e.fromRoom === 'page' && !GROUND.includes(e.toRoom) && e.toRoom !== 'page') || (e.toRoom === 'page' && !['page', 'owner'].includes(e.fromRoom)),
  },
  {
    name: 'the ground (errors, log, timers, version, wire, paths) imports only the ground',
    refuses: (e) => GROUND.includes(e.fromRoom) && !GROUND.includes(e.toRoom),
  },
  {
    name: 'detect and ingest are leaves: they import only each other and the ground',
    refuses: (e) => ['detect', 'ingest'].includes(e.fromRoom) && ![...GROUND, 'detect', 'ingest'].includes(e.toRoom),
  },
  {
    name: 'transports never import the owner: they are handed a SessionHost and a Logger',
    refuses: (e) => TRANSPORTS(e.fromRoom) && e.toRoom === 'owner',
  },
  {
    name: 'transports reach tools only through dispatchTool: no store, vigil, brain or tool of their own (the in-process host, stdio/stdio-session.ts, builds them)',
    refuses: (e) =>
      TRANSPORTS(e.fromRoom) &&
      e.from !== 'src/transports/stdio/stdio-session.ts' &&
      ['tools', 'store', 'vigil', 'brain', 'probe', 'pool', 'watch', 'skeleton', 'ranking', 'workers'].includes(e.toRoom),
  },
  {
    name: 'the proxy loads node built-ins, itself, src/wire/ and src/timers.ts only',
    refuses: (e) => e.fromRoom === 'transports/proxy' && !['transports/proxy', 'wire', 'timers'].includes(e.toRoom),
  },
  {
    name: 'only the owner, the CLI and hosts wire transports',
    refuses: (e) => TRANSPORTS(e.toRoom) && !TRANSPORTS(e.fromRoom) && !['owner', 'cli', 'hosts'].includes(e.fromRoom),
  },
  {
    name: 'only the CLI and hosts reach the owner',
    refuses: (e) => e.toRoom === 'owner' && !['owner', 'cli', 'hosts'].includes(e.fromRoom),
  },
  {
    name: 'nothing imports the CLI',
    refuses: (e) => e.toRoom === 'cli' && e.fromRoom !== 'cli',
  },
  {
    name: 'a worker imports nothing of the main thread: no transport, CLI, owner, vigil, session, dispatch or tool',
    refuses: (e) => e.fromRoom === 'workers' && (TRANSPORTS(e.toRoom) || ['cli', 'owner', 'vigil', 'session', 'dispatch', 'tools', 'hosts'].includes(e.toRoom)),
  },
];

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

function roomOf(rel: string): string {
  const parts = rel.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  if (parts.length === 2) return parts[1]!.replace(/\.ts$/, '');
  if (parts[1] === 'transports' && parts.length > 3) return `transports/${parts[2]}`;
  return parts[1]!;
}

/** Every module a file names: static imports and re-exports (types too), bare imports, import(). */
export function specifiersOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of code.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

function edgesOf(files: string[]): { edges: Edge[]; packages: { from: string; spec: string }[] } {
  const edges: Edge[] = [];
  const packages: { from: string; spec: string }[] = [];
  for (const file of files) {
    const from = relative(ROOT, file);
    for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) {
        if (!spec.startsWith('node:')) packages.push({ from, spec });
        continue;
      }
      const to = relative(ROOT, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
      edges.push({ from, to, fromRoom: roomOf(from), toRoom: roomOf(to) });
    }
  }
  return { edges, packages };
}

const sources = () => [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'workers'))];

test('every import between rooms is one docs/architecture.md allows', () => {
  const { edges } = edgesOf(sources());
  assert.ok(edges.length > 100, `read the imports (${edges.length} edges)`);
  const known = (e: Edge) => KNOWN_EXCEPTIONS.some((k) => k.from === e.from && k.to === e.to);
  const broken = RULES.flatMap((rule) => edges.filter((e) => e.fromRoom !== e.toRoom && rule.refuses(e) && !known(e)).map((e) => `${rule.name}: ${e.from} imports ${e.to}`));
  assert.deepEqual(broken, []);
});

test('the proxy and the ground load no package: node built-ins only', () => {
  const { packages } = edgesOf(sources());
  const bad = packages.filter((p) => ['transports/proxy', ...GROUND].includes(roomOf(p.from))).map((p) => `${p.from} imports ${p.spec}`);
  assert.deepEqual(bad, []);
});

test('the reader of imports sees every form an import takes', () => {
  const text = [
    "import { a } from './a.js';",
    'import type {\n  B,\n  C,\n} from "../b.js";',
    "export { d } from './d.js';",
    "import './side-effect.js';",
    "const e = await import('./e.js');",
    "// import { f } from './commented.js';",
    "/* import { g } from './block.js'; */",
  ].join('\n');
  assert.deepEqual(specifiersOf(text).sort(), ['../b.js', './a.js', './d.js', './e.js', './side-effect.js']);
});

test('the page\'s client (page-client/) imports nothing of src/: it is a client of the REST seam, bundled apart', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { fileURLToPath } = await import('node:url');
  const dir = fileURLToPath(new URL('../../page-client/', import.meta.url));
  const bad: string[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.js'))) {
    for (const m of readFileSync(dir + f, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1]!;
      if (spec.startsWith('./')) continue;
      if (['preact', 'preact/hooks', 'htm/preact', '@dagrejs/dagre'].includes(spec)) continue;
      bad.push(`page-client/${f} imports ${spec}`);
    }
  }
  assert.deepEqual(bad, []);
});
