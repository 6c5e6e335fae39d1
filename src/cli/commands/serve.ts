/**
 * `gardener serve`: the owner in the foreground (what systemd or launchd runs), or, with
 * `--status` / `--stop`, a question to the verified owner already running for this home (a peer
 * on the socket that is not one is told nothing: GDN_OWNER_UNVERIFIED).
 */
import { resolveHome } from '../../brain/home.js';
import { InvalidArgumentError, OwnerNotRunningError, OwnerUnverifiedError } from '../../errors.js';
import { dialOwnerOf } from '../../owner/dial-home.js';
import { createLogger, logLevelFrom } from '../../log.js';
import { VERSION } from '../../version.js';
import { msFromEnv } from '../../timers.js';
import { printJson, printLine, positiveInt } from '../output.js';

/** Bound on `--status` / `--stop` reaching the owner, in ms. */
const CONTROL_TIMEOUT_MS = 2_000;

export interface ServeOptions {
  port: string;
  host: string;
  allowRemote?: boolean;
  http?: boolean;
  maxBrains: string;
  status?: boolean;
  stop?: boolean;
  json?: boolean;
}

/** Overrides WRITER_IDLE_MS (ms): tests, and operators who want writers kept longer or shorter. */
export const WRITER_IDLE_ENV = 'GARDENER_WRITER_IDLE_MS';
/** Overrides UPGRADE_CHECK_MS (ms): how often the owner looks for an install over its code. */
export const UPGRADE_CHECK_ENV = 'GARDENER_UPGRADE_CHECK_MS';
/** Overrides OWNER_FILES_CHECK_MS (ms): how often the owner looks at its lock and socket files. */
export const FILES_CHECK_ENV = 'GARDENER_OWNER_FILES_CHECK_MS';

export async function serve(opts: ServeOptions): Promise<void> {
  const home = resolveHome();
  if (opts.status || opts.stop) return control(home, opts.stop ? 'stop' : 'status', opts.json === true);
  const port = opts.http === false ? null : portNumber(opts.port);
  const maxBrains = positiveInt('--max-brains', opts.maxBrains);
  const log = createLogger(logLevelFrom());
  (await import('../../service/malloc-arenas.js')).holdMallocArenas(log);
  const { WRITER_IDLE_MS } = await import('../../pool/store-writer-client.js');
  // How long an open brain's writer thread outlives its last call (docs/owner.md).
  const writerIdleMs = msFromEnv(WRITER_IDLE_ENV, WRITER_IDLE_MS, 1, (line) => log.warn(line));
  const { UPGRADE_CHECK_MS } = await import('../../owner/upgrade-watch.js');
  const upgradeCheckMs = msFromEnv(UPGRADE_CHECK_ENV, UPGRADE_CHECK_MS, 1, (line) => log.warn(line));
  const { startOwner, OWNER_FILES_CHECK_MS } = await import('../../owner/owner.js');
  const filesCheckMs = msFromEnv(FILES_CHECK_ENV, OWNER_FILES_CHECK_MS, 1, (line) => log.warn(line));
  const outcome = await startOwner({ home, port, host: opts.host, allowRemote: opts.allowRemote, maxBrains, writerIdleMs, upgradeCheckMs, filesCheckMs, log });
  if (!outcome.started) {
    const r = outcome.running;
    if (opts.json) printJson({ running: true, started: false, pid: r.pid, url: r.url, socket: r.socket });
    else printLine(`gardener serve: already running (pid ${r.pid}, ${r.url ?? 'no HTTP'})`);
    return;
  }
  await outcome.owner.closed;
  process.exit(outcome.owner.exitCode);
}

async function control(home: string, op: 'status' | 'stop', json: boolean): Promise<void> {
  const d = await dialOwnerOf(home, { gardener: VERSION, op, pid: process.pid }, CONTROL_TIMEOUT_MS);
  if (!d.socket) throw d.untrusted ? new OwnerUnverifiedError(home, d.why) : new OwnerNotRunningError(home);
  if (op === 'status') {
    d.socket.destroy();
    const s = d.reply.status ?? {};
    // This command runs the Gardener installed now: an owner of another version was installed over (upgrade-watch.ts).
    const installedOver = d.reply.gardener !== VERSION;
    if (json) return printJson({ running: true, ...s, ...(installedOver ? { installed_version: VERSION } : {}) });
    const brains = (s.brains as { id: string; armed: boolean }[] | undefined) ?? [];
    printLine(`owner pid ${d.reply.pid}, Gardener ${d.reply.gardener}, up ${String(s.uptime_s)} s`);
    if (installedOver) printLine(`installed: Gardener ${VERSION}; the owner stops for it within two minutes of the install (a service manager starts it again)`);
    printLine(`socket ${String(s.socket)}`);
    printLine(`http   ${String(s.url ?? 'off')}`);
    const sessions = (s.sessions ?? {}) as { socket?: number; http?: number; rest?: number };
    printLine(`sessions ${sessions.socket ?? 0} socket, ${sessions.http ?? 0} MCP over HTTP, ${sessions.rest ?? 0} REST`);
    printLine(`brains ${brains.length} open${brains.length ? ': ' + brains.map((b) => `${b.id}${b.armed ? ' (armed)' : ''}`).join(', ') : ''}`);
    return;
  }
  // The owner keeps this connection until it has shut down: its close means "stopped".
  d.socket.resume();
  await new Promise<void>((r) => d.socket.once('close', () => r()));
  if (json) printJson({ stopped: true, pid: d.reply.pid });
  else printLine(`gardener serve: stopped (pid ${d.reply.pid})`);
}

function portNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) throw new InvalidArgumentError(`--port must be a port number from 0 to 65535, got "${value}"`);
  return n;
}

