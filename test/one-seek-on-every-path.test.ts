/**
 * One seek: the CLI (`gardener seek`), the MCP `seek` tool, REST `POST /api/tools/seek` and the
 * library's exported `seek` rank through the same code, so one query gets one ranked answer
 * whichever way it is asked. A sentence once ranked by file on the tool's paths and by symbol
 * name on the CLI's and the library's (issue 18, item 3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { connectGardener } from './helpers/mcp-client.js';
import { ownerEnv, runCli, startServe } from './helpers/owner.js';
import { Brains, seek } from '../src/index.js';

const FILES = {
  'src/config.ts': [
    '// Reads the settings file and checks every field.',
    'export function parseConfig(text: string): Record<string, string> {',
    '  return Object.fromEntries(text.split("\\n").map((l) => l.split("=")));',
    '}',
    'export function loadConfig(path: string): string {',
    '  return path;',
    '}',
    '',
  ].join('\n'),
  'src/parse.ts': 'export function parse(text: string): string[] {\n  return text.split(" ");\n}\n',
  'src/loader.ts': "import { loadConfig } from './config.js';\nexport function loader(): string {\n  return loadConfig('app.conf');\n}\n",
  'src/server.ts': 'export function serve(port: number): number {\n  return port;\n}\n',
  'docs/config.md': '# Config\n\nThe config loader reads the settings and parse errors name the line.\n',
};

/** A sentence (ranked by file) and a name (exact definitions first). */
const QUERIES = ['parse config loader errors', 'parseConfig'];

type Hit = { path: string; line: number; symbol: string | null; score: number };
const shape = (hits: Hit[]): Hit[] => hits.map((h) => ({ path: h.path, line: h.line, symbol: h.symbol, score: h.score }));

test('one query gets the same ranked answer from the CLI, the MCP tool, REST and the library', { timeout: 120_000 }, async () => {
  const repo = await makeGitRepo(FILES);
  const home = await makeTempDir('gardener-home-');
  const env = ownerEnv(home.dir);
  const owner = await startServe(home.dir);
  try {
    const token = readFileSync(join(home.dir, 'token'), 'utf8').trim();
    const rest = async (name: string, args: Record<string, unknown>) => {
      const r = await fetch(`${owner.ready.url}/api/tools/${name}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-gardener-folder': repo.dir },
        body: JSON.stringify(args),
      });
      assert.equal(r.status, 200, `REST ${name}`);
      return (await r.json()) as { code: Hit[] };
    };
    await rest('ingest', {});
    const mcp = await connectGardener(repo.dir, env);
    const brains = new Brains({ home: home.dir, maxThreads: 1 });
    try {
      for (const query of QUERIES) {
        const viaRest = shape((await rest('seek', { query, scope: 'code' })).code);
        const tool = await mcp.call('seek', { query, scope: 'code' });
        assert.equal(tool.isError, false, JSON.stringify(tool.value));
        const viaMcp = shape(tool.value.code);
        const cli = await runCli(['seek', query, '--root', repo.dir, '--json'], env);
        assert.equal(cli.code, 0, cli.stderr);
        const viaCli = shape(JSON.parse(cli.stdout));
        const viaLibrary = shape(seek(brains.resolve(repo.dir).reader, query));

        assert.ok(viaRest.length > 0, `"${query}" finds something`);
        assert.deepEqual(viaMcp, viaRest, `"${query}": MCP and REST`);
        assert.deepEqual(viaCli, viaRest, `"${query}": CLI and REST`);
        assert.deepEqual(viaLibrary, viaRest, `"${query}": library and REST`);
      }
    } finally {
      await mcp.close();
      await brains.close();
    }
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
