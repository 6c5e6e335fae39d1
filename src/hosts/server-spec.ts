/** Reading a host's entry into a ServerSpec, and comparing two (install is a no-op on a match). */
import { isDeepStrictEqual } from 'node:util';
import type { ServerSpec } from './types.js';

const strings = (v: unknown): Record<string, string> | undefined => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out = Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
  return Object.keys(out).length ? out : undefined;
};

/** The spec of a JSON (or parsed TOML) server entry in any host's dialect. */
export function specOf(entry: unknown): ServerSpec | null {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return null;
  const e = entry as Record<string, unknown>;
  const url = [e.url, e.serverUrl, e.httpUrl].find((u) => typeof u === 'string') as string | undefined;
  if (url) {
    const spec: ServerSpec = { transport: 'http', url };
    const headers = strings(e.headers);
    if (headers) spec.headers = headers;
    if (typeof e.bearer_token_env_var === 'string') spec.bearerTokenEnv = e.bearer_token_env_var;
    return spec;
  }
  if (typeof e.command !== 'string') return null;
  const spec: ServerSpec = { transport: 'stdio', command: e.command };
  const args = Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === 'string') : [];
  if (args.length) spec.args = args;
  const env = strings(e.env);
  if (env) spec.env = env;
  return spec;
}

/** Whether two specs configure the same thing (empty env and args count as absent). */
export function sameSpec(a: ServerSpec, b: ServerSpec): boolean {
  const norm = (s: ServerSpec): ServerSpec => {
    const out: ServerSpec = { ...s };
    if (out.args && out.args.length === 0) delete out.args;
    if (out.env && Object.keys(out.env).length === 0) delete out.env;
    if (out.headers && Object.keys(out.headers).length === 0) delete out.headers;
    for (const k of Object.keys(out) as (keyof ServerSpec)[]) if (out[k] === undefined) delete out[k];
    return out;
  };
  return isDeepStrictEqual(norm(a), norm(b));
}

/** `{K: V}` as `K=V` strings, in key order. */
export function envPairs(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).map(([k, v]) => `${k}=${v}`);
}

/**
 * `<cli> mcp add --scope <scope> --transport http gardener <url> -H 'k: v'…`: the one spelling
 * Claude Code and Gemini CLI share for an HTTP server (their stdio spellings differ).
 */
export function httpAddArgv(cli: string, scope: string, spec: ServerSpec, name: string): string[] {
  return [cli, 'mcp', 'add', '--scope', scope, '--transport', 'http', name, spec.url!, ...Object.entries(spec.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`])];
}
