/**
 * A raw JSON-RPC peer over the built `gardener mcp`'s stdio: bytes in, lines out. The SDK's
 * Client validates what it sends, so it cannot send what the fuzz suite needs to send.
 *
 *   const rpc = await startRawRpc(root, env);
 *   rpc.write(Buffer.from('not json\n'));
 *   const answer = await rpc.request('tools/list');   // resolves with the whole response
 *
 * Every stdout line must be JSON (stdout carries protocol only); a line that is not is
 * collected in `garbage`. Responses without an id (id null: parse errors, invalid requests)
 * are collected in order in `nullIdErrors`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { CLI } from '../helpers/mcp-client.js';

export interface RpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawRpc {
  child: ChildProcess;
  pid: number;
  /** Null-id error responses received so far, in order. */
  nullIdErrors: RpcResponse[];
  /** Stdout lines that were not JSON (must stay empty). */
  garbage: string[];
  stderr(): string;
  /** Set once the server exited: its code and signal. */
  exited: { code: number | null; signal: NodeJS.Signals | null } | null;
  write(bytes: Buffer | string): Promise<void>;
  /** Sends a request with a fresh id and resolves with its response; rejects if the server exits first. */
  request(method: string, params?: unknown): Promise<RpcResponse>;
  /** Sends raw bytes that contain a request with this id and resolves with its response. */
  requestRaw(id: number, bytes: Buffer | string): Promise<RpcResponse>;
  /** A fresh id, for requestRaw. */
  nextId(): number;
  /** The initialize handshake. */
  initialize(): Promise<RpcResponse>;
  /** Ends stdin and waits for the server to exit. */
  close(): Promise<void>;
}

export async function startRawRpc(root: string, env: NodeJS.ProcessEnv): Promise<RawRpc> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 1 << 20) stderr += d;
  });
  // A server that dies mid-write must fail the test with its stderr, not crash the runner.
  child.stdin!.on('error', () => {});
  const waiting = new Map<number | string, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void }>();
  const rpc: RawRpc = {
    child,
    pid: child.pid!,
    nullIdErrors: [],
    garbage: [],
    stderr: () => stderr,
    exited: null,
    async write(bytes) {
      if (!child.stdin!.write(bytes)) await Promise.race([once(child.stdin!, 'drain'), once(child, 'exit')]);
    },
    request(method, params) {
      const id = rpc.nextId();
      return rpc.requestRaw(id, JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }) + '\n');
    },
    requestRaw(id, bytes) {
      const answer = new Promise<RpcResponse>((resolve, reject) => {
        if (rpc.exited) reject(new Error(`the server exited (${JSON.stringify(rpc.exited)}): ${stderr}`));
        waiting.set(id, { resolve, reject });
      });
      void rpc.write(bytes);
      return answer;
    },
    nextId: (() => {
      let id = 1000;
      return () => ++id;
    })(),
    initialize: () =>
      rpc.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gardener-faults', version: '0' } }).then(async (r) => {
        await rpc.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
        return r;
      }),
    async close() {
      if (!rpc.exited) {
        const exit = once(child, 'exit');
        child.stdin!.end();
        await exit;
      }
    },
  };
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      let msg: RpcResponse;
      try {
        msg = JSON.parse(line);
      } catch {
        rpc.garbage.push(line.slice(0, 200));
        continue;
      }
      if (msg.id === null && msg.error) rpc.nullIdErrors.push(msg);
      else if (msg.id !== undefined && msg.id !== null && waiting.has(msg.id)) {
        waiting.get(msg.id)!.resolve(msg);
        waiting.delete(msg.id);
      }
    }
  });
  child.on('exit', (code, signal) => {
    rpc.exited = { code, signal };
    for (const w of waiting.values()) w.reject(new Error(`the server exited (code ${code}, signal ${signal}): ${stderr.slice(-2000)}`));
    waiting.clear();
  });
  return rpc;
}
