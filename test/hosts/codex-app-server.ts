/**
 * A small JSON-RPC client for `codex app-server` (newline-delimited JSON over stdio), enough to
 * prove a connection the way Codex itself sees it: start a thread in the project, ask for the
 * MCP servers' status, call a tool. Every request is bounded; the process is killed on close.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { HOST_BIN, HOST_COMMAND_TIMEOUT_MS } from './host-world.js';

export interface CodexAppServer {
  request(method: string, params: unknown): Promise<{ result?: any; error?: { code: number; message: string } }>;
  notify(method: string): void;
  /** Resolves at the first notification `method` whose params satisfy `match`. */
  notification(method: string, match: (params: any) => boolean): Promise<any>;
  close(): void;
}

export function startCodexAppServer(cwd: string, env: NodeJS.ProcessEnv): CodexAppServer {
  const proc: ChildProcess = spawn(join(HOST_BIN, 'codex'), ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map<number, (m: any) => void>();
  const seen: any[] = [];
  const watchers: { method: string; match: (p: any) => boolean; resolve: (p: any) => void }[] = [];
  let nextId = 0;
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.id !== undefined && pending.has(msg.id)) {
      pending.get(msg.id)!(msg);
      pending.delete(msg.id);
    } else if (typeof msg.method === 'string') {
      seen.push(msg);
      for (const w of [...watchers]) {
        if (w.method === msg.method && w.match(msg.params)) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(msg.params);
        }
      }
    }
  });
  const bounded = <T>(what: string, p: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`codex app-server: no answer to ${what} within ${HOST_COMMAND_TIMEOUT_MS} ms`)), HOST_COMMAND_TIMEOUT_MS);
    });
    return Promise.race([p, limit]).finally(() => clearTimeout(timer));
  };
  const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => reject(new Error(`codex app-server exited (${code})`))));
  exited.catch(() => {});
  return {
    request(method, params) {
      const id = ++nextId;
      const answer = new Promise<any>((resolve) => pending.set(id, resolve));
      proc.stdin!.write(JSON.stringify({ id, method, params }) + '\n');
      return bounded(method, Promise.race([answer, exited]));
    },
    notify(method) {
      proc.stdin!.write(JSON.stringify({ method }) + '\n');
    },
    notification(method, match) {
      const hit = seen.find((m) => m.method === method && match(m.params));
      if (hit) return Promise.resolve(hit.params);
      return bounded(method, Promise.race([new Promise<any>((resolve) => watchers.push({ method, match, resolve })), exited]));
    },
    close() {
      proc.stdin!.end();
      proc.kill('SIGKILL');
    },
  };
}

/** initialize + initialized + an ephemeral thread in `cwd`; returns the thread id. */
export async function startThread(server: CodexAppServer, cwd: string): Promise<string> {
  const init = await server.request('initialize', { clientInfo: { name: 'gardener-host-test', version: '0' } });
  if (init.error) throw new Error(`initialize: ${init.error.message}`);
  server.notify('initialized');
  const started = await server.request('thread/start', { cwd, ephemeral: true });
  if (started.error) throw new Error(`thread/start: ${started.error.message}`);
  return started.result.thread.id as string;
}
