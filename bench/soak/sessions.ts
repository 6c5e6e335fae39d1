/**
 * Sessions as hosts open them, over each of the owner's transports, with one shape: call a
 * tool, close, or be killed in the middle of a call.
 *
 *   stdio   `gardener mcp` as a host launches it (a proxy to the owner; it must say so)
 *   socket  the owner's socket directly, verified and greeted as the proxy does (dialOwnerOf)
 *   http    MCP Streamable HTTP on /mcp (initialize, calls, DELETE at the end)
 *   rest    POST /api/tools/<name>, one request a call
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { dialOwnerOf } from '../../src/owner/dial-home.js';
import { VERSION } from '../../src/version.js';
import { CLI, type OwnerProcess } from './owner-process.js';

export type Transport = 'stdio' | 'socket' | 'http' | 'rest';
export const TRANSPORTS: readonly Transport[] = ['stdio', 'socket', 'http', 'rest'];

export interface CallResult {
  ok: boolean;
  text: string;
  ms: number;
}

export interface SoakSession {
  transport: Transport;
  folder: string;
  call(tool: string, args: Record<string, unknown>): Promise<CallResult>;
  /** Ends the session as a host that quits does. */
  close(): Promise<void>;
  /** Starts `tool` and kills the session while it runs (the process, the socket, the request). */
  killMidCall(tool: string, args: Record<string, unknown>): Promise<void>;
}

/** Bound on one call, in ms: a call that does not answer is a failure the soak reports, never a hang. */
export const CALL_BOUND_MS = 120_000;

const INIT_PARAMS = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gardener-soak', version: '0' } };

/**
 * Resolves once the event loop has polled its sockets: what they received while this thread was
 * blocked (the soak's git moves and bursts run synchronously, seconds for a `git gc` beside a
 * 1000-file burst) is read before the next request. Otherwise a keep-alive connection the owner
 * closed meanwhile (idle past its 5 s, on Node and Bun alike) still looks open to undici, which
 * writes the next request on it and fails it with "other side closed": 1 call in the 120-minute
 * Bun run of ef43cab, 6 of about 4 500 requests in earlier runs. A timer then an immediate: the
 * timer alone may fire before the loop polls, an immediate alone right after the poll it is in.
 */
export function pollSocketsAfterBlocking(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));
}

/** A fetch failure with its cause (undici says only "fetch failed"; the cause names the socket's error). */
const failure = (err: unknown): string => {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause ? `${e.message}: ${e.cause.code ?? ''} ${e.cause.message ?? ''}`.trim() : e.message;
};

const textOf = (result: any): string => (Array.isArray(result?.content) ? result.content.map((c: any) => c.text ?? '').join('\n') : JSON.stringify(result ?? null));

/** JSON-RPC over newline-delimited lines on a pair of streams (the proxy's stdio, the socket). */
class LinePeer {
  #pending = new Map<number, (msg: any) => void>();
  #next = 1;
  #buf = '';
  #closed = false;
  constructor(
    readable: NodeJS.ReadableStream,
    private write: (line: string) => void,
  ) {
    readable.setEncoding('utf8');
    readable.on('data', (d: string) => {
      this.#buf += d;
      let nl;
      while ((nl = this.#buf.indexOf('\n')) !== -1) {
        const line = this.#buf.slice(0, nl);
        this.#buf = this.#buf.slice(nl + 1);
        let msg: any;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (typeof msg.id === 'number' && this.#pending.has(msg.id)) {
          this.#pending.get(msg.id)!(msg);
          this.#pending.delete(msg.id);
        }
      }
    });
    readable.on('close', () => this.fail());
    readable.on('end', () => this.fail());
  }
  fail(): void {
    this.#closed = true;
    for (const r of this.#pending.values()) r({ error: { message: 'the session ended' } });
    this.#pending.clear();
  }
  request(method: string, params: unknown): Promise<any> {
    if (this.#closed) return Promise.resolve({ error: { message: 'the session ended' } });
    const id = this.#next++;
    return new Promise((resolve) => {
      const bound = setTimeout(() => {
        this.#pending.delete(id);
        resolve({ error: { message: `no answer within ${CALL_BOUND_MS} ms` } });
      }, CALL_BOUND_MS);
      this.#pending.set(id, (msg) => {
        clearTimeout(bound);
        resolve(msg);
      });
      this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  }
  notify(method: string): void {
    if (!this.#closed) this.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  }
}

async function mcpCall(peer: LinePeer, tool: string, args: Record<string, unknown>): Promise<CallResult> {
  const t0 = performance.now();
  const msg = await peer.request('tools/call', { name: tool, arguments: args });
  const ms = performance.now() - t0;
  if (msg.error) return { ok: false, text: String(msg.error.message), ms };
  return { ok: msg.result?.isError !== true, text: textOf(msg.result), ms };
}

async function initialize(peer: LinePeer): Promise<void> {
  const r = await peer.request('initialize', INIT_PARAMS);
  if (r.error) throw new Error(`soak: initialize failed: ${r.error.message}`);
  peer.notify('notifications/initialized');
}

export async function openStdio(folder: string, env: NodeJS.ProcessEnv): Promise<SoakSession> {
  const proc: ChildProcess = spawn(process.execPath, [CLI, 'mcp', '--root', folder], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  proc.stdin!.on('error', () => {});
  const peer = new LinePeer(proc.stdout!, (line) => proc.stdin!.write(line));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  await initialize(peer);
  if (!/proxying to the owner/.test(stderr)) {
    // The proxy says where it serves before its first answer.
    proc.kill('SIGKILL');
    await exited;
    throw new Error(`soak: gardener mcp did not proxy to the owner: ${stderr.trim().slice(-500)}`);
  }
  return {
    transport: 'stdio',
    folder,
    call: (tool, args) => mcpCall(peer, tool, args),
    async close() {
      proc.stdin!.end();
      await exited;
    },
    async killMidCall(tool, args) {
      void mcpCall(peer, tool, args);
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

export async function openSocket(home: string, folder: string): Promise<SoakSession> {
  const d = await dialOwnerOf(home, { gardener: VERSION, op: 'mcp', folder, pid: process.pid }, 10_000);
  if (!d.socket) throw new Error(`soak: the owner's socket did not take a session: ${d.why}`);
  if (!d.reply.ok) throw new Error(`soak: the owner refused a socket session: ${d.reply.error}`);
  const socket: Socket = d.socket;
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const peer = new LinePeer(socket, (line) => socket.write(line));
  if (d.rest.length > 0) socket.unshift(d.rest);
  // The dial paused the socket once it had the owner's answer.
  socket.resume();
  await initialize(peer);
  return {
    transport: 'socket',
    folder,
    call: (tool, args) => mcpCall(peer, tool, args),
    async close() {
      socket.end();
      await closed;
    },
    async killMidCall(tool, args) {
      void mcpCall(peer, tool, args);
      socket.destroy();
      await closed;
    },
  };
}

/** The JSON-RPC answer in a Streamable HTTP response (JSON, or the first `data:` line of an event stream). */
async function rpcAnswer(res: Response): Promise<any> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const line of text.split('\n')) if (line.startsWith('data:')) return JSON.parse(line.slice(5));
    return { error: { message: `an event stream with no data (${res.status})` } };
  }
  try {
    return JSON.parse(text);
  } catch {
    return { error: { message: `HTTP ${res.status}: ${text.slice(0, 200)}` } };
  }
}

export async function openHttp(owner: OwnerProcess, folder: string): Promise<SoakSession> {
  const base = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-gardener-folder': folder };
  let id = 1;
  const init = await fetch(`${owner.url}/mcp`, { method: 'POST', headers: base, body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'initialize', params: INIT_PARAMS }) });
  const sid = init.headers.get('mcp-session-id');
  const first = await rpcAnswer(init);
  if (!sid || first.error) throw new Error(`soak: /mcp initialize failed (${init.status}): ${JSON.stringify(first).slice(0, 300)}`);
  const headers = { ...base, 'mcp-session-id': sid, 'mcp-protocol-version': INIT_PARAMS.protocolVersion };
  await (await fetch(`${owner.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).arrayBuffer();
  const call = async (tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${owner.url}/mcp`, { method: 'POST', headers, signal: signal ?? AbortSignal.timeout(CALL_BOUND_MS), body: JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: tool, arguments: args } }) });
      const msg = await rpcAnswer(res);
      const ms = performance.now() - t0;
      if (msg.error) return { ok: false, text: String(msg.error.message), ms };
      return { ok: msg.result?.isError !== true, text: textOf(msg.result), ms };
    } catch (err) {
      return { ok: false, text: failure(err), ms: performance.now() - t0 };
    }
  };
  return {
    transport: 'http',
    folder,
    call: (tool, args) => call(tool, args),
    async close() {
      await (await fetch(`${owner.url}/mcp`, { method: 'DELETE', headers })).arrayBuffer();
    },
    async killMidCall(tool, args) {
      // A host that dies mid-call: the request is cut, the session never ended (the owner's idle bound reaps it).
      const ac = new AbortController();
      const running = call(tool, args, ac.signal);
      setImmediate(() => ac.abort());
      await running;
    },
  };
}

export async function restCall(owner: Pick<OwnerProcess, 'url' | 'token'>, folder: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${owner.url}/api/tools/${tool}`, {
      method: 'POST',
      signal: signal ?? AbortSignal.timeout(CALL_BOUND_MS),
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', 'x-gardener-folder': folder },
      body: JSON.stringify(args),
    });
    const text = await res.text();
    return { ok: res.ok, text, ms: performance.now() - t0 };
  } catch (err) {
    return { ok: false, text: failure(err), ms: performance.now() - t0 };
  }
}

export function openRest(owner: OwnerProcess, folder: string): SoakSession {
  return {
    transport: 'rest',
    folder,
    call: (tool, args) => restCall(owner, folder, tool, args),
    close: async () => {},
    async killMidCall(tool, args) {
      const ac = new AbortController();
      const running = restCall(owner, folder, tool, args, ac.signal);
      setImmediate(() => ac.abort());
      await running;
    },
  };
}

export async function openSession(transport: Transport, owner: OwnerProcess, home: string, folder: string, env: NodeJS.ProcessEnv): Promise<SoakSession> {
  switch (transport) {
    case 'stdio':
      return openStdio(folder, env);
    case 'socket':
      return openSocket(home, folder);
    case 'http':
      return openHttp(owner, folder);
    case 'rest':
      return openRest(owner, folder);
  }
}
