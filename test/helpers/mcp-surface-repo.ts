/**
 * A small repository for the MCP surface tests (prompts, resources, completions, logging): a
 * config module with two parsers, a CLI that uses one, and a test of it; a real git repository,
 * ingested by a real `gardener mcp` over stdio (the SDK's Client), with a note remembered.
 */
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { makeGitRepo, makeTempDir, type GitRepo, type TempDir } from './git-repo.js';
import { connectGardener, type GardenerClient } from './mcp-client.js';

export const FILES: Record<string, string> = {
  'src/config.ts': 'export interface Config { port: number }\n\nexport function parseConfig(text: string): Config {\n  return JSON.parse(text) as Config;\n}\n\nexport function parseArgs(argv: string[]): string[] {\n  return argv.slice(2);\n}\n',
  'src/cli.ts': "import { parseConfig } from './config.js';\n\nexport function main(text: string): number {\n  return parseConfig(text).port;\n}\n",
  'test/config.test.ts': "import { parseConfig } from '../src/config.js';\n\nexport function checkConfig(): boolean {\n  return parseConfig('{\"port\":1}').port === 1;\n}\n",
  '.env': 'API_KEY=sk-not-a-real-key-0123456789\n',
};

export const NOTE_TEXT = 'The config is parsed once at startup by parseConfig; never re-read it per request.';

type Waiter<T> = { test: (m: T) => boolean; resolve: (m: T) => void };

export interface SurfaceSession {
  repo: GitRepo;
  home: TempDir;
  c: GardenerClient;
  noteId: number;
  /** Every notifications/message params seen so far. */
  logs: { level: string; data: any }[];
  /** Every resources/updated uri seen so far. */
  updates: string[];
  resourceListChanges(): number;
  /** Resolves at the first log message (already seen or to come) that passes `test`. */
  nextLog(test: (m: { level: string; data: any }) => boolean): Promise<{ level: string; data: any }>;
  /** Resolves at the next resources/updated for `uri`. */
  nextUpdate(uri: string): Promise<string>;
  close(): Promise<void>;
}

export async function openSurface(): Promise<SurfaceSession> {
  const repo = await makeGitRepo(FILES);
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  const logs: { level: string; data: any }[] = [];
  const updates: string[] = [];
  let listChanges = 0;
  let logWaiters: Waiter<{ level: string; data: any }>[] = [];
  let updateWaiters: Waiter<string>[] = [];
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    const m = { level: n.params.level, data: n.params.data };
    logs.push(m);
    logWaiters = logWaiters.filter((w) => (w.test(m) ? (w.resolve(m), false) : true));
  });
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
    updateWaiters = updateWaiters.filter((w) => (w.test(n.params.uri) ? (w.resolve(n.params.uri), false) : true));
  });
  c.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanges++);
  // The late verbs (changes, for before-commit) arm once the probe sees the new brain.
  const armed = c.nextListChanged();
  const ingest = await c.call('ingest');
  if (ingest.isError) throw new Error(`ingest failed: ${JSON.stringify(ingest.value)}`);
  await armed;
  const note = await c.call('remember', { text: NOTE_TEXT, files: ['src/config.ts'], pinned: true, tags: ['config'] });
  if (note.isError) throw new Error(`remember failed: ${JSON.stringify(note.value)}`);
  return {
    repo,
    home,
    c,
    noteId: note.value.id as number,
    logs,
    updates,
    resourceListChanges: () => listChanges,
    nextLog: (test) => {
      const seen = logs.find(test);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => logWaiters.push({ test, resolve }));
    },
    nextUpdate: (uri) => new Promise((resolve) => updateWaiters.push({ test: (u) => u === uri, resolve })),
    close: async () => {
      await c.close();
      await repo.cleanup();
      await home.cleanup();
    },
  };
}
