/**
 * Installs, removes and inspects Gardener's service with the platform's manager: systemd
 * (user units, `systemctl --user`) or launchd (a LaunchAgent, `launchctl bootstrap gui/<uid>`).
 * The manager is detected (macOS: launchd; elsewhere: systemd) unless one is forced. Install
 * is idempotent (the file is rewritten and the service re-enabled); uninstall of nothing is
 * not an error. Manager commands run as child processes found on PATH, so tests put recording
 * fakes first on PATH.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, platform, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServiceError } from '../errors.js';
import { logLevelFrom } from '../log.js';
import { LAUNCHD_LABEL, SERVICE_NAME, launchdPlist, systemdUnit, type ServiceSpec } from './units.js';

export type ManagerName = 'systemd' | 'launchd';

export interface ServiceContext {
  manager?: ManagerName;
  env?: NodeJS.ProcessEnv;
  /** The runtime and script to run. @default this process's runtime and CLI */
  runtime?: string;
  script?: string;
  home: string;
}

export interface ServicePlan {
  manager: ManagerName;
  /** Where the unit or plist lives. */
  file: string;
  content: string;
}

export interface ServiceReport {
  manager: ManagerName;
  file: string;
  installed: boolean;
  /** What the manager said: `active`, `inactive`, `loaded`, `not-loaded`, ... */
  state: string;
  /** Commands run, in order (what a user would type). */
  ran: string[];
  hint?: string;
}

const CLI_SCRIPT = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const UNIT_FILE = `${SERVICE_NAME}.service`;

export function detectManager(): ManagerName {
  return platform() === 'darwin' ? 'launchd' : 'systemd';
}

export function planService(ctx: ServiceContext): ServicePlan {
  const env = ctx.env ?? process.env;
  const manager = ctx.manager ?? detectManager();
  const spec: ServiceSpec = {
    runtime: ctx.runtime ?? process.execPath,
    script: ctx.script ?? CLI_SCRIPT,
    home: env.GARDENER_HOME ? ctx.home : undefined,
    // Checked here, so a level the owner would refuse is said at install, not in its log.
    logLevel: env.GARDENER_LOG ? logLevelFrom(env) : undefined,
    logDir: join(ctx.home, 'logs'),
  };
  const home = env.HOME || homedir();
  if (manager === 'systemd') {
    const config = env.XDG_CONFIG_HOME || join(home, '.config');
    return { manager, file: join(config, 'systemd', 'user', UNIT_FILE), content: systemdUnit(spec) };
  }
  return { manager, file: join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`), content: launchdPlist(spec) };
}

export function installService(ctx: ServiceContext): ServiceReport {
  const plan = planService(ctx);
  const run = runner(ctx.env);
  mkdirSync(dirname(plan.file), { recursive: true });
  // Written whole then renamed: a half-written unit is never loaded. 0644: owned by the user,
  // writable by nobody else (launchd refuses a group/other-writable agent).
  const tmp = `${plan.file}.tmp-${process.pid}`;
  writeFileSync(tmp, plan.content, { mode: 0o644 });
  renameSync(tmp, plan.file);
  if (plan.manager === 'systemd') {
    run.must('systemctl', ['--user', 'daemon-reload']);
    run.must('systemctl', ['--user', 'enable', '--now', UNIT_FILE]);
    return {
      ...report(plan, true, run.quiet('systemctl', ['--user', 'is-active', UNIT_FILE]).out || 'unknown', run.ran),
      hint: `to keep it running without a login session: loginctl enable-linger ${userName()}`,
    };
  }
  mkdirSync(join(ctx.home, 'logs'), { recursive: true, mode: 0o700 });
  const domain = `gui/${uid()}`;
  run.quiet('launchctl', ['bootout', `${domain}/${LAUNCHD_LABEL}`]); // re-install: unload the old one first
  run.must('launchctl', ['bootstrap', domain, plan.file]);
  return report(plan, true, 'loaded', run.ran);
}

export function uninstallService(ctx: ServiceContext): ServiceReport {
  const plan = planService(ctx);
  const run = runner(ctx.env);
  const installed = existsSync(plan.file);
  if (plan.manager === 'systemd') {
    if (installed) run.quiet('systemctl', ['--user', 'disable', '--now', UNIT_FILE]);
    rmSync(plan.file, { force: true });
    if (installed) run.quiet('systemctl', ['--user', 'daemon-reload']);
  } else {
    if (installed) run.quiet('launchctl', ['bootout', `gui/${uid()}/${LAUNCHD_LABEL}`]);
    rmSync(plan.file, { force: true });
  }
  return { ...report(plan, false, installed ? 'removed' : 'not-installed', run.ran) };
}

export function serviceStatus(ctx: ServiceContext): ServiceReport {
  const plan = planService(ctx);
  const run = runner(ctx.env);
  const installed = existsSync(plan.file);
  let state: string;
  if (plan.manager === 'systemd') {
    state = run.quiet('systemctl', ['--user', 'is-active', UNIT_FILE]).out || 'unknown';
  } else {
    state = run.quiet('launchctl', ['print', `gui/${uid()}/${LAUNCHD_LABEL}`]).status === 0 ? 'loaded' : 'not-loaded';
  }
  const current = installed ? readFileSync(plan.file, 'utf8') : null;
  const hint = installed && current !== plan.content
    ? 'the installed file differs from this Gardener (moved Node or Gardener?): run `gardener service install` again'
    : undefined;
  return { ...report(plan, installed, state, run.ran), ...(hint ? { hint } : {}) };
}

function report(plan: ServicePlan, installed: boolean, state: string, ran: string[]): ServiceReport {
  return { manager: plan.manager, file: plan.file, installed, state, ran };
}

function runner(env: NodeJS.ProcessEnv = process.env) {
  const ran: string[] = [];
  const exec = (cmd: string, args: string[]) => {
    ran.push([cmd, ...args].join(' '));
    const r = spawnSync(cmd, args, { env, encoding: 'utf8', timeout: 30_000 });
    if (r.error) {
      const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
      return { status: -1, out: '', err: missing ? `${cmd} was not found on PATH` : r.error.message };
    }
    return { status: r.status ?? -1, out: r.stdout.trim(), err: r.stderr.trim() };
  };
  return {
    ran,
    quiet: exec,
    must(cmd: string, args: string[]) {
      const r = exec(cmd, args);
      if (r.status !== 0) {
        throw new ServiceError(`\`${[cmd, ...args].join(' ')}\` failed (${r.err || `exit ${r.status}`}); the service file was written but not started`);
      }
      return r;
    },
  };
}

function uid(): number {
  return process.getuid?.() ?? userInfo().uid;
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return '$USER';
  }
}
