/**
 * `gardener hosts [list] | install|print|uninstall <host>`: which agent hosts have Gardener
 * configured, and configuring one (see src/hosts and docs/hosts.md). `print` changes nothing.
 */
import { homedir } from 'node:os';
import { resolveHome } from '../../brain/index.js';
import { applySteps, hostContext, listHosts, planInstall, planUninstall, renderPlan, type HostEntry } from '../../hosts/index.js';
import { printJson, printLine } from '../output.js';

export interface HostsOptions {
  root?: string;
  scope?: string;
  http?: boolean;
  guide?: boolean;
  json?: boolean;
}

const tilde = (path: string): string => {
  const home = process.env.HOME || homedir();
  return path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path;
};

const describe = (e: HostEntry): string => `${e.transport}, ${e.scope} (${tilde(e.file)})${e.blocked ? ` — ${e.blocked}` : ''}`;

function context(opts: HostsOptions) {
  return hostContext({ folder: opts.root ?? '.', home: resolveHome() });
}

export async function hostsList(opts: HostsOptions): Promise<void> {
  const ctx = context(opts);
  const hosts = listHosts(ctx);
  if (opts.json) return printJson({ project: ctx.project, home: ctx.home, hosts });
  printLine(`hosts for ${ctx.project} (Gardener home ${tilde(ctx.home)}):`);
  for (const h of hosts) {
    const where = h.error ? `unreadable: ${h.error}` : h.entries.length ? h.entries.map(describe).join('; ') : 'not configured';
    const cli = h.cli && !h.cli_on_path ? ` [${h.cli} not on PATH]` : '';
    printLine(`  ${h.host.padEnd(15)} ${where}${cli}`);
  }
}

export async function hostsInstall(name: string, opts: HostsOptions): Promise<void> {
  const ctx = context(opts);
  const plan = planInstall(ctx, name, opts);
  const done = applySteps(ctx, name, plan.steps);
  if (opts.json) return printJson({ host: plan.host, scope: plan.scope, transport: plan.transport, changed: done.length > 0, done, notes: plan.notes });
  printLine(`gardener hosts: ${plan.host} ${done.length ? 'configured' : 'already configured'} (${plan.transport}, ${plan.scope} scope)`);
  for (const line of done) printLine(`  ${line}`);
  for (const note of plan.notes) printLine(`  note: ${note}`);
}

export async function hostsPrint(name: string, opts: HostsOptions): Promise<void> {
  const ctx = context(opts);
  const plan = planInstall(ctx, name, opts, true);
  const text = renderPlan(ctx, plan);
  if (opts.json) return printJson({ host: plan.host, scope: plan.scope, transport: plan.transport, spec: plan.spec, steps: plan.steps, notes: plan.notes, text });
  process.stdout.write(text);
}

export async function hostsUninstall(name: string, opts: HostsOptions): Promise<void> {
  const ctx = context(opts);
  const plan = planUninstall(ctx, name, opts);
  const done = applySteps(ctx, name, plan.steps);
  if (opts.json) return printJson({ host: plan.host, removed: plan.removed.map((e) => ({ scope: e.scope, transport: e.transport, file: e.file })), done });
  printLine(`gardener hosts: ${plan.host} ${plan.removed.length ? `removed from ${plan.removed.map((e) => e.scope).join(', ')}` : 'had no Gardener entry'}`);
  for (const line of done) printLine(`  ${line}`);
}

export async function hostsCommand(action: 'install' | 'print' | 'uninstall', name: string, opts: HostsOptions): Promise<void> {
  if (action === 'install') return hostsInstall(name, opts);
  if (action === 'print') return hostsPrint(name, opts);
  return hostsUninstall(name, opts);
}
