/**
 * Hosts without a CLI for their MCP servers: Gardener edits their JSON config (one key, a
 * backup beside it; see json-config.ts). Each row says where the file is per scope, under which
 * key servers live, and how the entry looks: Cursor and VS Code have a workspace variable, so
 * one user-level entry follows the open project; Claude Desktop and Windsurf do not, so their
 * entry names the project folder. Tokens are references the host resolves at start
 * (`${env:GARDENER_TOKEN}`; VS Code prompts once and keeps it in its secret storage).
 */
import { join } from 'node:path';
import { getAt, readJsonConfig } from './json-config.js';
import { gardenerSpec } from './host-context.js';
import { specOf } from './server-spec.js';
import { SERVER_NAME, TOKEN_ENV, type HostAdapter, type HostContext, type HostEntry, type HostName, type Scope, type ServerSpec, type Step } from './types.js';

/** VS Code's input that holds the token (prompted once, stored in VS Code's secret storage). */
export const VSCODE_TOKEN_INPUT = 'gardener-token';

interface JsonHostRow {
  name: HostName;
  title: string;
  scopes: readonly Scope[];
  http: boolean;
  guideFile?: string;
  /** The key that maps server names to entries. */
  key: 'mcpServers' | 'servers';
  file(ctx: HostContext, scope: Scope): string;
  /** The folder the entry names: a workspace variable the host expands, or the project. */
  folder(ctx: HostContext): string;
  /** The entry as the host spells it. */
  entry(spec: ServerSpec): Record<string, unknown>;
  token?: string;
}

/** Where an app keeps per-user settings: Application Support (macOS), %APPDATA% (Windows), XDG (else). */
function appConfigDir(ctx: HostContext, app: string): string {
  if (process.platform === 'darwin') return join(ctx.userHome, 'Library', 'Application Support', app);
  if (process.platform === 'win32') return join(ctx.env.APPDATA || join(ctx.userHome, 'AppData', 'Roaming'), app);
  return join(ctx.env.XDG_CONFIG_HOME || join(ctx.userHome, '.config'), app);
}

const plain = (spec: ServerSpec, urlKey = 'url'): Record<string, unknown> =>
  spec.transport === 'http'
    ? { [urlKey]: spec.url, headers: spec.headers }
    : { command: spec.command, args: spec.args, ...(spec.env ? { env: spec.env } : {}) };

const ROWS: JsonHostRow[] = [
  {
    name: 'cursor',
    title: 'Cursor',
    scopes: ['user', 'project'],
    http: true,
    guideFile: 'AGENTS.md',
    key: 'mcpServers',
    file: (ctx, scope) => (scope === 'project' ? join(ctx.project, '.cursor', 'mcp.json') : join(ctx.userHome, '.cursor', 'mcp.json')),
    folder: () => '${workspaceFolder}',
    entry: (spec) => plain(spec),
    token: `\${env:${TOKEN_ENV}}`,
  },
  {
    name: 'vscode',
    title: 'VS Code',
    scopes: ['user', 'project'],
    http: true,
    guideFile: 'AGENTS.md',
    key: 'servers',
    file: (ctx, scope) => (scope === 'project' ? join(ctx.project, '.vscode', 'mcp.json') : join(appConfigDir(ctx, 'Code'), 'User', 'mcp.json')),
    folder: () => '${workspaceFolder}',
    entry: (spec) => ({ type: spec.transport, ...plain(spec) }),
    token: `\${input:${VSCODE_TOKEN_INPUT}}`,
  },
  {
    name: 'claude-desktop',
    title: 'Claude Desktop',
    scopes: ['user'],
    http: false,
    key: 'mcpServers',
    file: (ctx) => join(appConfigDir(ctx, 'Claude'), 'claude_desktop_config.json'),
    folder: (ctx) => ctx.project,
    entry: (spec) => plain(spec),
  },
  {
    name: 'windsurf',
    title: 'Windsurf',
    scopes: ['user'],
    http: true,
    guideFile: 'AGENTS.md',
    key: 'mcpServers',
    file: (ctx) => join(ctx.userHome, '.codeium', 'windsurf', 'mcp_config.json'),
    folder: (ctx) => ctx.project,
    entry: (spec) => plain(spec, 'serverUrl'),
    token: `\${env:${TOKEN_ENV}}`,
  },
];

function vscodeInputs(file: string, keep: boolean): unknown[] {
  const inputs = getAt(readJsonConfig(file), ['inputs']);
  const others = (Array.isArray(inputs) ? inputs : []).filter((i) => (i as { id?: unknown })?.id !== VSCODE_TOKEN_INPUT);
  return keep ? [...others, { type: 'promptString', id: VSCODE_TOKEN_INPUT, description: 'Gardener token (run: gardener token)', password: true }] : others;
}

function jsonHost(row: JsonHostRow): HostAdapter {
  return {
    name: row.name,
    title: row.title,
    scopes: row.scopes,
    defaultScope: 'user',
    http: row.http,
    ...(row.guideFile ? { guideFile: row.guideFile } : {}),

    find(ctx) {
      const found: HostEntry[] = [];
      for (const scope of row.scopes) {
        const file = row.file(ctx, scope);
        const spec = specOf(getAt(readJsonConfig(file), [row.key, SERVER_NAME]));
        if (spec) found.push({ scope, transport: spec.transport, file, spec });
      }
      return found;
    },

    spec(ctx, _scope, transport) {
      return gardenerSpec(ctx, transport, `Bearer ${row.token}`, row.folder(ctx));
    },

    add(ctx, scope, spec) {
      const file = row.file(ctx, scope);
      const steps: Step[] = [{ kind: 'json-set', file, path: [row.key, SERVER_NAME], value: row.entry(spec) }];
      if (row.name === 'vscode' && spec.transport === 'http') steps.push({ kind: 'json-set', file, path: ['inputs'], value: vscodeInputs(file, true) });
      return steps;
    },

    remove(_ctx, entry) {
      const steps: Step[] = [{ kind: 'json-remove', file: entry.file, path: [row.key, SERVER_NAME] }];
      if (row.name === 'vscode' && entry.transport === 'http') {
        const rest = vscodeInputs(entry.file, false);
        steps.push(rest.length ? { kind: 'json-set', file: entry.file, path: ['inputs'], value: rest } : { kind: 'json-remove', file: entry.file, path: ['inputs'] });
      }
      return steps;
    },

    after(ctx, _scope, transport) {
      const notes: string[] = [];
      if (row.folder(ctx) === ctx.project) notes.push(`the entry names ${ctx.project}: ${row.title} has no workspace variable, so run install again from another project to switch`);
      if (transport === 'http' && row.name === 'vscode') notes.push('VS Code asks for the token once when it starts the server: paste what `gardener token` prints (kept in its secret storage)');
      notes.push(`restart ${row.title} (or reload its MCP servers) to pick the entry up`);
      return notes;
    },
  };
}

export const JSON_FILE_HOSTS: readonly HostAdapter[] = ROWS.map(jsonHost);
