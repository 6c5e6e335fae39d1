/**
 * One brain.db, moved between the three SQLite drivers (issue 11): written by the test's own
 * Node (better-sqlite3 on Node 20), then Node 24 (node:sqlite, the `node` dev dependency), then
 * Bun (bun:sqlite), then the first again. Each hop ingests a file through the CLI and, over a
 * real MCP session on that runtime, finds the file the previous runtime wrote; the handshake
 * names the driver and its SQLite. This is also the CLI/MCP smoke on every runtime.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { sourceFiles } from './helpers/brains.js';
import { CLI } from './helpers/mcp-client.js';
import { openStore } from '../src/store/index.js';

const NODE_24 = fileURLToPath(new URL('../../node_modules/node/bin/node', import.meta.url));
const BUN = fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url));

function ownNodeDriver(): string {
  try {
    createRequire(import.meta.url)('node:sqlite');
    return 'node:sqlite';
  } catch {
    return 'better-sqlite3';
  }
}

interface Runtime {
  label: string;
  command: string;
  driver: string;
}

const OWN: Runtime = { label: `node ${process.version}`, command: process.execPath, driver: ownNodeDriver() };
const HOPS: Runtime[] = [
  OWN,
  { label: 'node 24', command: NODE_24, driver: 'node:sqlite' },
  { label: 'bun', command: BUN, driver: 'bun:sqlite' },
  OWN,
];

async function mcpSession(runtime: Runtime, root: string, env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({ command: runtime.command, args: [CLI, 'mcp', '--root', root], env: env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'gardener-test', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
    assert.notEqual(r.isError, true, `${runtime.label} ${name}: ${r.content[0]?.text}`);
    return JSON.parse(r.content[0]!.text);
  };
  return { call, close: () => client.close() };
}

test('a brain.db written by one driver is read and written by the others (Node 20, Node 24, Bun)', async () => {
  for (const r of HOPS) assert.ok(existsSync(r.command), `${r.command} is missing: it is a dev dependency, run npm install`);
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(2));
  const env = { ...process.env, GARDENER_HOME: home.dir };
  let store = '';
  try {
    for (const [k, runtime] of HOPS.entries()) {
      repo.write(`src/hop${k}.ts`, `export function hop_${k}(): number {\n  return ${k};\n}\n`);
      const init = spawnSync(runtime.command, [CLI, 'init', repo.dir, '--json'], { env, encoding: 'utf8' });
      assert.equal(init.status, 0, `${runtime.label} init: ${init.stderr}`);
      store = JSON.parse(init.stdout).store;
      const status = JSON.parse(spawnSync(runtime.command, [CLI, 'status', repo.dir, '--json'], { env, encoding: 'utf8' }).stdout);
      assert.equal(status.driver, runtime.driver, runtime.label);
      assert.match(status.sqlite, /^3\.\d+\.\d+$/);
      assert.equal(status.files, 2 + k + 1, `${runtime.label} sees every file written so far`);
      const mcp = await mcpSession(runtime, repo.dir, env);
      try {
        const hello = await mcp.call('session_handshake');
        assert.equal(hello.driver, runtime.driver, `${runtime.label} handshake`);
        assert.equal(hello.sqlite, status.sqlite);
        for (let seen = 0; seen <= k; seen++) {
          const found = await mcp.call('seek', { query: `hop_${seen}`, scope: 'code' });
          assert.equal(found.code[0]?.path, `src/hop${seen}.ts`, `${runtime.label} finds what hop ${seen} (${HOPS[seen]!.label}) wrote`);
        }
      } finally {
        await mcp.close();
      }
    }
    const db = openStore(store);
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get<{ integrity_check: string }>()!.integrity_check, 'ok');
      db.exec("INSERT INTO fts (fts) VALUES ('integrity-check')"); // throws if the full-text index disagrees
    } finally {
      db.close();
    }
  } finally {
    await home.cleanup();
    await repo.cleanup();
  }
});
