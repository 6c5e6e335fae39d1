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
  close(): Promise<void>;
}

export async function openSurface(): Promise<SurfaceSession> {
  const repo = await makeGitRepo(FILES);
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  const logs: { level: string; data: any }[] = [];
  const updates: string[] = [];
  let listChanges = 0;
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push({ level: n.params.level, data: n.params.data });
  });
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
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
    close: async () => {
      await c.close();
      await repo.cleanup();
      await home.cleanup();
    },
  };
}
