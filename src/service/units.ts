/**
 * The service definitions Gardener installs: a systemd user unit and a launchd LaunchAgent,
 * both running `gardener serve` in the foreground. A service has no shell PATH, so both name
 * the runtime and the script by absolute path; re-run `gardener service install` after moving
 * Node (docs/service.md).
 */
import { OWNER_GLIBC_TUNABLES } from './malloc-arenas.js';
import type { LogLevel } from '../log.js';

/** The launchd label, and the systemd unit's name without `.service`. */
export const SERVICE_NAME = 'gardener';
export const LAUNCHD_LABEL = 'dev.gardener.owner';
/** systemd gives up restarting after this many failures in START_LIMIT_INTERVAL_S. */
const START_LIMIT_BURST = 5;
const START_LIMIT_INTERVAL_S = 300;
/** A crash is restarted after this pause, so a failing start does not spin. */
const RESTART_SEC = 2;

export interface ServiceSpec {
  /** Absolute path of the runtime (node or bun). */
  runtime: string;
  /** Absolute path of the CLI script (dist/src/cli/main.js). */
  script: string;
  /** GARDENER_HOME to pass on, when the user set one. */
  home?: string;
  /** GARDENER_LOG to pass on, when the user set one (checked: one of src/log.ts's levels). */
  logLevel?: LogLevel;
  /** Where launchd writes stdout/stderr (systemd sends them to the journal). */
  logDir: string;
}

/** systemd quoting: a double-quoted word, with `$` and `%` (variables and specifiers) escaped. */
function systemdWord(word: string): string {
  return `"${word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '$$$$').replace(/%/g, '%%')}"`;
}

export function systemdUnit(spec: ServiceSpec): string {
  // The owner's malloc held to two arenas from its first start (src/service/malloc-arenas.ts): no second start, and on every Node.
  const env = [`Environment=${systemdWord(`GLIBC_TUNABLES=${OWNER_GLIBC_TUNABLES}`)}`];
  if (spec.home) env.push(`Environment=${systemdWord(`GARDENER_HOME=${spec.home}`)}`);
  if (spec.logLevel) env.push(`Environment=${systemdWord(`GARDENER_LOG=${spec.logLevel}`)}`);
  return [
    '[Unit]',
    'Description=Gardener owner: one shared, fresh code memory for every agent session',
    `StartLimitIntervalSec=${START_LIMIT_INTERVAL_S}`,
    `StartLimitBurst=${START_LIMIT_BURST}`,
    '',
    '[Service]',
    'Type=exec',
    `ExecStart=${systemdWord(spec.runtime)} ${systemdWord(spec.script)} serve`,
    'Restart=on-failure',
    `RestartSec=${RESTART_SEC}`,
    ...env,
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const str = (s: string) => `<string>${xml(s)}</string>`;

export function launchdPlist(spec: ServiceSpec): string {
  const vars = [
    ...(spec.home ? [`    <key>GARDENER_HOME</key>${str(spec.home)}`] : []),
    ...(spec.logLevel ? [`    <key>GARDENER_LOG</key>${str(spec.logLevel)}`] : []),
  ];
  const env = vars.length ? ['  <key>EnvironmentVariables</key>', '  <dict>', ...vars, '  </dict>'] : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key>${str(LAUNCHD_LABEL)}`,
    '  <key>ProgramArguments</key>',
    `  <array>${str(spec.runtime)}${str(spec.script)}${str('serve')}</array>`,
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key>',
    '  <dict><key>SuccessfulExit</key><false/></dict>',
    `  <key>ProcessType</key>${str('Background')}`,
    `  <key>StandardOutPath</key>${str(`${spec.logDir}/owner.out.log`)}`,
    `  <key>StandardErrorPath</key>${str(`${spec.logDir}/owner.err.log`)}`,
    ...env,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
