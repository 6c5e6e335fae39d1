/**
 * Gemini CLI, through its own CLI. Its form differs from the others: `gemini mcp add gardener
 * <command> <args...>` (no `--`), and its default scope is the project's `.gemini/settings.json`,
 * so Gardener asks for `user` (`~/.gemini/settings.json`) unless told otherwise. Gemini disables
 * every MCP server, user-level ones too, in a folder it does not trust, without a word in the
 * tools: the entry reports that, and install says how to trust the folder. Gemini expands
 * `${VAR}` in headers, so the token stays a reference.
 */
import { dirname, join, relative, isAbsolute } from 'node:path';
import { getAt, readJsonConfig } from './json-config.js';
import { gardenerSpec } from './host-context.js';
import { envPairs, httpAddArgv, specOf } from './server-spec.js';
import { SERVER_NAME, TOKEN_ENV, type HostAdapter, type HostContext, type HostEntry } from './types.js';

function userSettings(ctx: HostContext): string {
  return join(ctx.userHome, '.gemini', 'settings.json');
}

export function trustedFoldersFile(ctx: HostContext): string {
  return ctx.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(ctx.userHome, '.gemini', 'trustedFolders.json');
}

const inside = (dir: string, root: string): boolean => {
  const rel = relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Gemini's own rule: folder trust off, the trust variable set, else the longest matching rule. */
export function geminiTrusts(ctx: HostContext): boolean {
  if (getAt(readJsonConfig(userSettings(ctx)), ['security', 'folderTrust', 'enabled']) === false) return true;
  if (ctx.env.GEMINI_CLI_TRUST_WORKSPACE === 'true') return true;
  let best: { length: number; level: string } | null = null;
  for (const [path, level] of Object.entries(readJsonConfig(trustedFoldersFile(ctx)))) {
    const effective = level === 'TRUST_PARENT' ? dirname(path) : path;
    if (inside(ctx.project, effective) && (!best || effective.length > best.length)) best = { length: effective.length, level: String(level) };
  }
  return best !== null && best.level !== 'DO_NOT_TRUST';
}

const UNTRUSTED = 'folder not trusted: Gemini CLI connects no MCP server in it until you trust it';

export const gemini: HostAdapter = {
  name: 'gemini',
  title: 'Gemini CLI',
  cli: 'gemini',
  scopes: ['user', 'project'],
  defaultScope: 'user',
  http: true,
  guideFile: 'GEMINI.md',

  find(ctx) {
    const found: HostEntry[] = [];
    const trusted = geminiTrusts(ctx);
    for (const [scope, file] of [['user', userSettings(ctx)], ['project', join(ctx.project, '.gemini', 'settings.json')]] as const) {
      const spec = specOf(getAt(readJsonConfig(file), ['mcpServers', SERVER_NAME]));
      if (!spec) continue;
      const entry: HostEntry = { scope, transport: spec.transport, file, spec };
      if (!trusted) entry.blocked = UNTRUSTED;
      found.push(entry);
    }
    return found;
  },

  spec(ctx, _scope, transport) {
    return gardenerSpec(ctx, transport, `Bearer \${${TOKEN_ENV}}`);
  },

  add(ctx, scope, spec) {
    const argv =
      spec.transport === 'http'
        ? httpAddArgv('gemini', scope, spec, SERVER_NAME)
        : ['gemini', 'mcp', 'add', '--scope', scope, ...envPairs(spec.env).flatMap((p) => ['-e', p]), SERVER_NAME, spec.command!, ...(spec.args ?? [])];
    return [{ kind: 'run', argv, cwd: ctx.project }];
  },

  remove(ctx, entry) {
    return [{ kind: 'run', argv: ['gemini', 'mcp', 'remove', '--scope', entry.scope, SERVER_NAME], cwd: ctx.project }];
  },

  manual(ctx, spec, scope) {
    const entry = spec.transport === 'http' ? { url: spec.url, type: 'http', headers: spec.headers } : { command: spec.command, args: spec.args, ...(spec.env ? { env: spec.env } : {}) };
    const file = scope === 'project' ? join(ctx.project, '.gemini', 'settings.json') : userSettings(ctx);
    return { file, text: JSON.stringify({ mcpServers: { [SERVER_NAME]: entry } }, null, 2) };
  },

  after(ctx, scope, transport) {
    const notes: string[] = [];
    if (!geminiTrusts(ctx)) {
      notes.push(
        `Gemini CLI does not trust ${ctx.project} yet, so it will not connect: run \`gemini\` there and choose "Trust folder", ` +
          `or add "${ctx.project}": "TRUST_FOLDER" to ${trustedFoldersFile(ctx)}`,
      );
    }
    if (transport === 'http' && scope === 'user') notes.push(`the URL names ${ctx.project}: every project will use that folder's brain over HTTP`);
    return notes;
  },
};
