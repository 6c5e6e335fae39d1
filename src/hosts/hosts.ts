/**
 * `gardener hosts`: what is configured where, and install / print / uninstall as plans of
 * steps. A plan is computed from the files first (so install of what is already there is a
 * no-op, and print can show the exact lines without touching anything), then applied step by
 * step: the host's own CLI where it has one, else a JSON edit with a backup.
 */
import { join } from 'node:path';
import { GardenerError, InvalidArgumentError } from '../errors.js';
import { findOnPath, runHostCli } from './host-cli.js';
import { HOSTS, findHost } from './host-table.js';
import { guideBlock, removeGuide, setGuide } from './guide.js';
import { dropJsonIfEmpty, removeJsonAt, setJsonAt } from './json-config.js';
import { sameSpec } from './server-spec.js';
import { TOKEN_ENV, type HostAdapter, type HostContext, type HostEntry, type Scope, type ServerSpec, type Step, type Transport } from './types.js';

export interface HostListing {
  host: string;
  title: string;
  /** The host's own CLI and whether it is on PATH (null: the host has none; its file is edited). */
  cli: string | null;
  cli_on_path: boolean | null;
  scopes: readonly Scope[];
  default_scope: Scope;
  entries: HostEntry[];
  /** Why this host's config could not be read (the listing goes on with the others). */
  error?: string;
}

export function listHosts(ctx: HostContext): HostListing[] {
  return HOSTS.map((h) => {
    const listing: HostListing = {
      host: h.name,
      title: h.title,
      cli: h.cli ?? null,
      cli_on_path: h.cli ? findOnPath(h.cli, ctx.env) !== null : null,
      scopes: h.scopes,
      default_scope: h.defaultScope,
      entries: [],
    };
    try {
      listing.entries = h.find(ctx);
    } catch (err) {
      if (!(err instanceof GardenerError)) throw err;
      listing.error = err.message;
    }
    return listing;
  });
}

export interface InstallOptions {
  scope?: string;
  http?: boolean;
  guide?: boolean;
}

export interface HostPlan {
  host: string;
  scope: Scope;
  transport: Transport;
  /** The entry this plan leaves. */
  spec: ServerSpec;
  steps: Step[];
  /** False when the entry (and the guide) are already as planned: nothing to do. */
  changes: boolean;
  notes: string[];
}

function checkScope(host: HostAdapter, scope: string | undefined): Scope {
  if (scope === undefined) return host.defaultScope;
  if (!(host.scopes as readonly string[]).includes(scope)) {
    throw new InvalidArgumentError(`--scope must be one of ${host.scopes.join(', ')} for ${host.name}, got "${scope}"`);
  }
  return scope as Scope;
}

function guideFileOf(host: HostAdapter, ctx: HostContext): string {
  if (!host.guideFile) throw new InvalidArgumentError(`--guide: ${host.title} has no project to hold agent instructions`);
  return join(ctx.project, host.guideFile);
}

/**
 * What install would do. `fresh` plans from nothing (what `print` shows); otherwise an entry
 * already in the scope is kept when it matches and replaced when it does not.
 */
export function planInstall(ctx: HostContext, name: string, opts: InstallOptions, fresh = false): HostPlan {
  const host = findHost(name);
  const scope = checkScope(host, opts.scope);
  const transport: Transport = opts.http ? 'http' : 'stdio';
  if (transport === 'http' && !host.http) throw new InvalidArgumentError(`--http: ${host.title} launches stdio servers only; install it without --http`);
  const spec = host.spec(ctx, scope, transport);
  const existing = fresh ? undefined : host.find(ctx).find((e) => e.scope === scope);
  const steps: Step[] = [];
  if (!existing || !sameSpec(existing.spec, spec)) {
    if (existing) steps.push(...host.remove(ctx, existing));
    steps.push(...host.add(ctx, scope, spec));
  }
  if (opts.guide) steps.push({ kind: 'guide-set', file: guideFileOf(host, ctx), block: guideBlock() });
  const notes = [...(host.after?.(ctx, scope, transport) ?? [])];
  if (transport === 'http') {
    if (host.name !== 'vscode') notes.push(`the entry holds a reference, not the token: export ${TOKEN_ENV}=$(gardener token) in the shell that starts ${host.title}`);
    if (!ctx.ownerRunning) notes.push(`no owner is running for ${ctx.home}: start one (\`gardener serve\`, or \`gardener service install\`) before the host connects`);
  }
  return { host: host.name, scope, transport, spec, steps, changes: steps.length > 0, notes };
}

/** What uninstall would do: remove Gardener's entry from `scope`, else from every scope that has one. */
export function planUninstall(ctx: HostContext, name: string, opts: { scope?: string; guide?: boolean }): { host: string; removed: HostEntry[]; steps: Step[] } {
  const host = findHost(name);
  const scope = opts.scope === undefined ? undefined : checkScope(host, opts.scope);
  const removed = host.find(ctx).filter((e) => scope === undefined || e.scope === scope);
  const steps = removed.flatMap((e) => host.remove(ctx, e));
  if (opts.guide) steps.push({ kind: 'guide-remove', file: guideFileOf(host, ctx) });
  return { host: host.name, removed, steps };
}

/** Applies the steps in order; returns what was run or written, as a person would type or see it. */
export function applySteps(ctx: HostContext, name: string, steps: readonly Step[]): string[] {
  const host = findHost(name);
  const done: string[] = [];
  for (const step of steps) {
    switch (step.kind) {
      case 'run':
        runHostCli(step.argv, step.cwd, ctx.env, host.title);
        done.push(shellLine(step.argv));
        break;
      case 'json-set':
        if (setJsonAt(step.file, step.path, step.value)) done.push(`set ${step.path.join('.')} in ${step.file}`);
        break;
      case 'json-remove':
        if (removeJsonAt(step.file, step.path)) done.push(`removed ${step.path.join('.')} from ${step.file}`);
        break;
      case 'json-drop-if-empty':
        if (dropJsonIfEmpty(step.file)) done.push(`removed ${step.file} (nothing else was in it)`);
        break;
      case 'guide-set':
        if (setGuide(step.file, step.block)) done.push(`wrote the Gardener block in ${step.file}`);
        break;
      case 'guide-remove':
        if (removeGuide(step.file)) done.push(`removed the Gardener block from ${step.file}`);
        break;
    }
  }
  return done;
}

const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** `argv` as one line a POSIX shell runs as given (`${VAR}` stays literal: single quotes). */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (SAFE_WORD.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** The exact lines of a plan, for `gardener hosts print`. */
export function renderPlan(ctx: HostContext, plan: HostPlan): string {
  const out: string[] = [];
  for (const step of plan.steps) {
    switch (step.kind) {
      case 'run':
        out.push(`(cd ${shellLine([step.cwd])} && ${shellLine(step.argv)})`);
        break;
      case 'json-set': {
        let fragment: unknown = step.value;
        for (const key of [...step.path].reverse()) fragment = { [key]: fragment };
        out.push(`# in ${step.file}, merged with what is there:`, JSON.stringify(fragment, null, 2));
        break;
      }
      case 'json-remove':
        out.push(`# remove ${step.path.join('.')} from ${step.file}`);
        break;
      case 'json-drop-if-empty':
        out.push(`# remove ${step.file} if nothing else is left in it`);
        break;
      case 'guide-set':
        out.push(`# appended to ${step.file}:`, step.block.trimEnd());
        break;
      case 'guide-remove':
        out.push(`# remove the Gardener block from ${step.file}`);
        break;
    }
  }
  const host = findHost(plan.host);
  const manual = host.manual?.(ctx, plan.spec, plan.scope);
  if (manual && plan.steps.some((s) => s.kind === 'run')) out.push(`# which leaves, in ${manual.file} (or write it by hand):`, manual.text.trimEnd());
  for (const note of plan.notes) out.push(`# ${note}`);
  return out.join('\n') + '\n';
}
