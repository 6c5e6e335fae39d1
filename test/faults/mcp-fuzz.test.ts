/**
 * Fuzzed JSON-RPC on stdio against the built `gardener mcp`, served in-process and as a proxy
 * to a real owner: seeded random bytes, invalid UTF-8, a 10 MB line, deeply nested JSON,
 * wrong types for every tool argument, unknown methods, malformed envelopes, and requests after a `shutdown` (MCP has none: it is an
 * unknown method, and the session goes on). Each gets a JSON-RPC error or a tool error, the
 * server never crashes, the next valid request (a ping after every case) is answered, stdout
 * stays protocol only, and the server's RSS stays bounded. Through the proxy, the session
 * never leaves the owner (no fallback in-process for anything a client sends).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { FAULTS_SEED, peakRssMb, recordFigures, rssMb, scaled, seededRandom } from './fault-config.js';
import { startRawRpc, type RawRpc } from './raw-rpc.js';
import { ownerEnv, startServe } from '../helpers/owner.js';
import { MAX_JSON_DEPTH } from '../../src/wire/index.js';

/** Peak RSS the server may reach under the whole fuzz run, in MB (the bench's bound). */
const RSS_BOUND_MB = 200;
/** Random-byte lines per run at FAULTS_SCALE=1. */
const RANDOM_LINES = 300;
/** Unknown method names per run at FAULTS_SCALE=1. */
const UNKNOWN_METHODS = 40;
/** Nesting depth of the deep JSON cases: far past any recursive parser's stack. */
const DEEP = 100_000;
/** "A 10 MB line". */
const BIG_LINE_BYTES = 10_000_000;

const JSON_TYPES = {
  string: 'a string',
  number: 7,
  integer: 7,
  boolean: true,
  array: ['x'],
  object: { x: 1 },
  null: null,
} as const;

interface Target {
  rpc: RawRpc;
  /** Checks that the session is where it started (the proxy: still on the owner). */
  check(): void;
  figures(): Record<string, unknown>;
  close(): Promise<void>;
}

test('fuzzed JSON-RPC on stdio: an error for each case, no crash, the next request answers, RSS bounded', { timeout: 600_000 }, async () => {
  await fuzz('mcp-fuzz', async (repo, home) => {
    const rpc = await startRawRpc(repo, { ...process.env, GARDENER_HOME: home, GARDENER_NO_OWNER: '1' });
    return { rpc, check: () => {}, figures: () => ({}), close: async () => {} };
  });
});

test('fuzzed JSON-RPC through the proxy to an owner: the same answers, and the session never leaves the owner', { timeout: 600_000 }, async () => {
  await fuzz('mcp-fuzz-proxy', async (repo, home) => {
    const owner = await startServe(home, ['--no-http']);
    const rpc = await startRawRpc(repo, ownerEnv(home));
    return {
      rpc,
      check: () => {
        assert.match(rpc.stderr(), /proxying to the owner/);
        assert.doesNotMatch(rpc.stderr(), /serving in-process/, 'the session stayed on the owner');
        assert.equal(owner.proc.exitCode, null, 'the owner is still running');
      },
      figures: () => ({ owner_peak_rss_mb: peakRssMb(owner.pid) }),
      close: async () => {
        await owner.stop();
      },
    };
  });
});

async function fuzz(name: string, start: (repo: string, home: string) => Promise<Target>): Promise<void> {
  const rand = seededRandom(FAULTS_SEED, 1);
  const repo = await makeGitRepo(sourceFiles(5));
  const home = await makeTempDir('gardener-home-');
  const target = await start(repo.dir, home.dir);
  const { rpc } = target;
  let tried = 0;
  let pings = 0;
  let errors = 0;
  let peakSampleMb = 0;
  const sample = () => (peakSampleMb = Math.max(peakSampleMb, rssMb(rpc.pid) ?? 0));
  const alive = async (what: string) => {
    const pong = await rpc.request('ping');
    tried++;
    pings++;
    assert.deepEqual(pong.result, {}, `the ping after ${what} is answered`);
    sample();
  };
  /** A line that cannot carry an id: one id-null error, then the next request answers. */
  const expectNullIdError = async (what: string, bytes: Buffer | string, codes: number[]) => {
    const before = rpc.nullIdErrors.length;
    await rpc.write(bytes);
    tried++;
    await alive(what);
    assert.equal(rpc.nullIdErrors.length, before + 1, `${what}: one JSON-RPC error with id null`);
    assert.ok(codes.includes(rpc.nullIdErrors[before]!.error!.code), `${what}: code ${rpc.nullIdErrors[before]!.error!.code}`);
    errors++;
  };
  /** A request with an id: a JSON-RPC error or an isError tool result for that id. */
  const expectError = async (what: string, id: number, bytes: Buffer | string) => {
    const answer = await rpc.requestRaw(id, bytes);
    tried++;
    const failed = answer.error !== undefined || answer.result?.isError === true;
    assert.ok(failed, `${what}: expected an error, got ${JSON.stringify(answer).slice(0, 300)}`);
    errors++;
    await alive(what);
  };
  const call = (id: number, name: unknown, args: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) + '\n';

  try {
    await rpc.initialize();
    await alive('initialize');

    // Seeded random bytes, one line each (whitespace-only lines are not messages: left out).
    for (let i = 0; i < scaled(RANDOM_LINES); i++) {
      let line = rand.bytes(1 + rand.int(rand.next() < 0.1 ? 20_000 : 300));
      line = Buffer.from(line.filter((b) => b !== 0x0a));
      if (line.toString('latin1').trim() === '') line = Buffer.concat([Buffer.from('x'), line]);
      await expectNullIdError(`random line ${i}`, Buffer.concat([line, Buffer.from('\n')]), [-32700, -32600]);
    }

    // Invalid UTF-8 inside an otherwise valid request.
    for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]) {
      const id = rpc.nextId();
      const bytes = Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"seek","arguments":{"query":"a`),
        Buffer.from(bad),
        Buffer.from('"}}}\n'),
      ]);
      await expectNullIdError(`invalid UTF-8 ${Buffer.from(bad).toString('hex')}`, bytes, [-32700]);
    }

    // A 10 MB line: junk, then a request whose argument is 10 MB.
    await expectNullIdError('a 10 MB junk line', Buffer.concat([Buffer.alloc(BIG_LINE_BYTES, 'a'), Buffer.from('\n')]), [-32700, -32600]);
    // Too long to read, but its id is found as the line streams past: -32600 with that id,
    // whether the id comes first or after the params (the SDK client's key order).
    for (const [what, text] of [
      ['a 10 MB request', (id: number) => call(id, 'seek', { query: 'q'.repeat(BIG_LINE_BYTES) })],
      ['a 10 MB request, id last', (id: number) => `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"seek","arguments":{"query":"${'q'.repeat(BIG_LINE_BYTES)}"}},"id":${id}}\n`],
    ] as const) {
      const id = rpc.nextId();
      const answer = await rpc.requestRaw(id, text(id));
      tried++;
      assert.equal(answer.error?.code, -32600, `${what}: -32600 with its id`);
      errors++;
      await alive(what);
    }

    // Deeply nested JSON: as tool arguments, as params, as the whole message.
    for (const [what, text] of [
      ['nested arguments', (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"seek","arguments":{"query":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}}\n`],
      ['nested params', (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}\n`],
    ] as const) {
      const id = rpc.nextId();
      const answer = await rpc.requestRaw(id, text(id));
      tried++;
      // Nested deeper than MAX_JSON_DEPTH: refused before parsing, with the id the line carries.
      assert.equal(answer.error?.code, -32600, `${what}: -32600 with its id, got ${JSON.stringify(answer).slice(0, 300)}`);
      errors++;
      await alive(what);
    }
    {
      const id = rpc.nextId();
      const answer = await rpc.requestRaw(id, `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"x":${'['.repeat(MAX_JSON_DEPTH - 3)}${']'.repeat(MAX_JSON_DEPTH - 3)}}}}\n`);
      tried++;
      assert.deepEqual(answer.result, {}, 'nesting within MAX_JSON_DEPTH is answered as usual');
      await alive('nesting within the bound');
    }
    await expectNullIdError('a nested array as the message', `${'['.repeat(DEEP)}${']'.repeat(DEEP)}\n`, [-32600]);
    await expectNullIdError('an unterminated nest', `${'{"a":'.repeat(DEEP)}\n`, [-32600]);

    // Malformed envelopes.
    for (const [what, line] of [
      ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
      ['no jsonrpc', '{"id":1,"method":"ping"}'],
      ['a number method', '{"jsonrpc":"2.0","id":1,"method":5}'],
      ['an object id', '{"jsonrpc":"2.0","id":{},"method":"ping"}'],
      ['a bare number', '42'],
      ['a bare string', '"ping"'],
      ['null', 'null'],
    ] as const) {
      await expectNullIdError(what, line + '\n', [-32600]);
    }

    // Unknown methods, and requests after "shutdown".
    for (let i = 0; i < scaled(UNKNOWN_METHODS); i++) {
      const method = rand.pick(['shutdown', 'exit', 'tools/destroy', 'resources/list', 'rpc.discover', '$/cancel', '']) + (i % 3 === 0 ? '' : `/${rand.int(1e6)}`);
      const id = rpc.nextId();
      await expectError(`unknown method "${method}"`, id, JSON.stringify({ jsonrpc: '2.0', id, method }) + '\n');
    }
    {
      const id = rpc.nextId();
      await expectError('shutdown', id, JSON.stringify({ jsonrpc: '2.0', id, method: 'shutdown' }) + '\n');
      await rpc.write(JSON.stringify({ jsonrpc: '2.0', method: 'exit' }) + '\n');
      const list = await rpc.request('tools/list');
      tried++;
      assert.ok(Array.isArray(list.result?.tools), 'tools/list after shutdown + exit is answered');
    }

    // Wrong types for every argument of every listed tool, and unknown tools.
    const tools = (await rpc.request('tools/list')).result.tools as { name: string; inputSchema: { properties?: Record<string, { type?: string }> } }[];
    tried++;
    let toolCases = 0;
    for (const tool of tools) {
      for (const [prop, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        for (const [type, value] of Object.entries(JSON_TYPES)) {
          if (type === schema.type || (schema.type === 'number' && type === 'integer') || (schema.type === 'integer' && type === 'number')) continue;
          const id = rpc.nextId();
          await expectError(`${tool.name}.${prop} as ${type}`, id, call(id, tool.name, { [prop]: value }));
          toolCases++;
        }
      }
      const id = rpc.nextId();
      await expectError(`${tool.name} with an unknown argument`, id, call(id, tool.name, { surely_not_an_argument: 1 }));
      toolCases++;
      const id2 = rpc.nextId();
      await expectError(`${tool.name} with arguments as an array`, id2, call(id2, tool.name, []));
      toolCases++;
    }
    for (const name of ['no_such_tool', 5, null, '', '../seek']) {
      const id = rpc.nextId();
      await expectError(`tool name ${JSON.stringify(name)}`, id, call(id, name, {}));
      toolCases++;
    }

    assert.deepEqual(rpc.garbage, [], 'stdout carries protocol only');
    assert.equal(rpc.exited, null, 'the server is still running');
    target.check();
    const peak = peakRssMb(rpc.pid) ?? peakSampleMb;
    assert.ok(peak <= RSS_BOUND_MB, `peak RSS ${peak} MB is within ${RSS_BOUND_MB} MB`);
    const extra = target.figures();
    await rpc.close();
    assert.equal(rpc.exited!.code, 0, `a clean exit on stdin EOF: ${rpc.stderr().slice(-500)}`);
    recordFigures(name, { requests: tried, fuzz_cases: tried - pings, pings, errors, tool_cases: toolCases, crashes: 0, peak_rss_mb: peak, ...extra });
  } catch (err) {
    const crashed = rpc.exited !== null;
    recordFigures(name, { requests: tried, errors, crashes: crashed ? 1 : 0, failed: (err as Error).message.slice(0, 300) });
    throw err;
  } finally {
    if (!rpc.exited) rpc.child.kill('SIGKILL');
    await target.close();
    await home.cleanup();
    await repo.cleanup();
  }
}
