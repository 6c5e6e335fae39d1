/**
 * The first frame loads only what it needs (issue 20, item 5): a `gardener mcp` session that
 * answers `initialize` and then sees stdin end has loaded the SDK, the mcp command and the
 * dial, and never commander, the hosts code, a store driver, the pool, the watcher or
 * tree-sitter. What loads is recorded by a module-loading hook (`module.register`, Node ≥ 20.6)
 * that appends every URL it loads to a file; the test reads the whole list after the process
 * has exited, so nothing here depends on timing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI } from './helpers/mcp-client.js';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';

/** Module URLs that must not load before (or for) the first frame, each with why it is heavy. */
const NOT_FOR_THE_FIRST_FRAME: readonly [RegExp, string][] = [
  [/\/node_modules\/commander\//, 'commander: the whole CLI parser, for one command'],
  [/\/src\/hosts\//, 'the hosts code'],
  [/\/src\/store\//, 'the store'],
  [/\/src\/pool\//, 'the worker pool'],
  [/\/node_modules\/piscina\//, 'piscina'],
  [/\/node_modules\/better-sqlite3\//, 'better-sqlite3'],
  [/^node:sqlite$/, 'node:sqlite'],
  [/\/node_modules\/@parcel\/watcher\//, 'the watcher'],
  [/tree-sitter/, 'tree-sitter'],
  [/\/src\/ingest\//, 'the ingest code'],
];

const INITIALIZE_LINE =
  JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gardener-test', version: '0.0.0' } },
  }) + '\n';

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.GARDENER_TEST_LOAD_LOG, url + '\\n');
  return next(url, context);
}
`;

const hooksRun = typeof register === 'function' && !(process.versions as Record<string, string | undefined>).bun;

/** Runs `gardener mcp` under the loading hook through one `initialize` and stdin's end; returns every URL loaded. */
async function loadedBy(env: NodeJS.ProcessEnv): Promise<string[]> {
  const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n' });
  const temp = await makeTempDir();
  try {
    const hooks = join(temp.dir, 'hooks.mjs');
    const preload = join(temp.dir, 'register.mjs');
    const logFile = join(temp.dir, 'loaded.txt');
    writeFileSync(hooks, HOOKS);
    writeFileSync(preload, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    writeFileSync(logFile, '');
    const child = spawn(process.execPath, ['--import', pathToFileURL(preload).href, CLI, 'mcp', '--root', repo.dir], {
      env: { ...process.env, GARDENER_HOME: join(temp.dir, 'home'), ...env, GARDENER_TEST_LOAD_LOG: logFile },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let out = '';
    const answered = new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      }),
    );
    const exited = once(child, 'exit');
    child.stdin.write(INITIALIZE_LINE);
    const line = await Promise.race([answered, exited.then(() => assert.fail(`gardener mcp exited before answering; stderr:\n${stderr}`))]);
    assert.ok((JSON.parse(line) as { result?: { serverInfo?: unknown } }).result?.serverInfo, `initialize was answered: ${line}`);
    child.stdin.end();
    const [code] = await exited;
    assert.equal(code, 0, stderr);
    const loaded = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    assert.ok(loaded.some((u) => u.includes('/@modelcontextprotocol/sdk/')), 'the hook saw the SDK load');
    return loaded;
  } finally {
    await temp.cleanup();
    await repo.cleanup();
  }
}

const heavyIn = (loaded: string[], rules: readonly [RegExp, string][]) =>
  loaded.flatMap((url) => rules.filter(([re]) => re.test(url)).map(([, why]) => `${why}: ${url}`));

test('a gardener mcp session that only answers initialize loads neither commander nor the hosts, the store, the pool, the watcher or tree-sitter', { skip: !hooksRun && 'module.register is Node only' }, async () => {
  assert.deepEqual(heavyIn(await loadedBy({ GARDENER_NO_OWNER: '1' }), NOT_FOR_THE_FIRST_FRAME), []);
});

test('in a home where no owner ever ran (no token), gardener mcp does not load the dial to an owner (sockets, crypto, the proof)', { skip: !hooksRun && 'module.register is Node only' }, async () => {
  const env = { ...process.env };
  delete env.GARDENER_NO_OWNER;
  const loaded = await loadedBy(env);
  const dial: [RegExp, string][] = [
    [/\/src\/owner\/(hello|verify-owner|run-paths|owner-file)\.js$/, 'the dial'],
    [/^node:(net|crypto)$/, 'a built-in only the dial needs'],
  ];
  assert.deepEqual(heavyIn(loaded, [...NOT_FOR_THE_FIRST_FRAME, ...dial]), []);
});
