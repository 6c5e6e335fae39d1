/**
 * A real MCP client (the SDK's own `Client`) talking to the built `gardener mcp` over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface GardenerClient {
  client: Client;
  transport: StdioClientTransport;
  /** The server process id. */
  pid: number;
  /** How many notifications/tools/list_changed arrived. */
  listChanged(): number;
  /** Resolves at the next list_changed notification. */
  nextListChanged(): Promise<void>;
  stderr(): string;
  /** Calls a tool and parses the JSON text of its result. */
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; value: any }>;
  close(): Promise<void>;
}

/** `cli`: the `gardener` entry to run (a copy of the package, in the install tests). */
export async function connectGardener(root: string, env: NodeJS.ProcessEnv, cli = CLI): Promise<GardenerClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--root', root],
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'gardener-test', version: '0.0.0' });
  let changed = 0;
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    changed++;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  });
  await client.connect(transport);
  return {
    client,
    transport,
    pid: transport.pid!,
    listChanged: () => changed,
    nextListChanged: () => new Promise<void>((r) => waiters.push(r)),
    stderr: () => stderr,
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
      return { isError: r.isError === true, value: JSON.parse(r.content[0]!.text) };
    },
    close: () => client.close(),
  };
}

/**
 * The progress notifications a connected client receives, recorded as they come off its
 * transport, in order. Not the SDK's `onprogress`: its client hands a notification to its handler
 * one microtask late but settles a response at once, so when the last progress notification and
 * the answer arrive in one read (a loaded machine) the answer drops the request's progress
 * handler first and the notification is lost to the caller ("unknown token"), though the server
 * sent it before the answer.
 */
export function progressOnTheWire(client: Client): { progress: number; total?: number }[] {
  const transport = client.transport;
  if (!transport?.onmessage) throw new Error('progressOnTheWire: connect the client first');
  const seen: { progress: number; total?: number }[] = [];
  const handle = transport.onmessage.bind(transport);
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: { progress: number; total?: number } };
    if (m.method === 'notifications/progress' && m.params) seen.push({ progress: m.params.progress, total: m.params.total });
    handle(message, extra);
  };
  return seen;
}
