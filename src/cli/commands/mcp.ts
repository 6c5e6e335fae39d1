/**
 * `gardener mcp [--root DIR]`: MCP over stdio for an agent host.
 *
 * When an owner (`gardener serve`) of the same version answers on this home's socket, and
 * proves it is this home's owner (owner/verify-owner.ts: the socket's place and a proof keyed
 * by the home's token, checked before the session folder is sent), this process only pipes
 * lines between stdio and the owner (it never loads the SDK, zod, SQLite or a worker, unless
 * the owner goes away and it falls back). An owner that holds the home's lock but has not
 * answered within PROXY_DIAL_MS is alive, and is waited for (owner/dial-live-owner.ts); one
 * that never answers ends this process with GDN_OWNER_NOT_ANSWERING. Otherwise — no owner, no
 * verified owner, another version, or GARDENER_NO_OWNER=1 — it serves in-process; that session
 * (and the proxy's fallback) moves to an owner of this home that answers later, and to a version
 * installed over this one (transports/stdio/handover.ts). Either way it says which on stderr.
 */
import { checkFolder } from '../../brain/folders.js';
import { resolveHome } from '../../brain/home.js';
import { dialLiveOwner, PROXY_OWNER_WAIT_ENV, PROXY_OWNER_WAIT_MS } from '../../owner/dial-live-owner.js';
import { msFromEnv } from '../../timers.js';
import { VERSION } from '../../version.js';
import type { Readable, Writable } from 'node:stream';
import type { ClientHello } from '../../transports/socket/hello.js';

/**
 * Bound on the first dial, in ms: a live owner answers in a few; no owner costs this once. A
 * live owner that answers later is still used (owner/dial-live-owner.ts).
 */
export const PROXY_DIAL_MS = 100;
/** Sets the dial bound in ms (a heavily loaded machine, or tests that must know where a session lives). */
export const PROXY_DIAL_ENV = 'GARDENER_PROXY_DIAL_MS';
/** How often an in-process `gardener mcp` looks for an install over its code, in ms (the owner's variable, serve.ts). */
const UPGRADE_CHECK_ENV = 'GARDENER_UPGRADE_CHECK_MS';

const say = (line: string) => process.stderr.write(`gardener mcp: ${line}\n`);

export async function mcp(opts: { root?: string }): Promise<void> {
  const folder = checkFolder(opts.root ?? process.cwd());
  const home = resolveHome();
  const hello = { gardener: VERSION, op: 'mcp' as const, folder, pid: process.pid, host_pid: process.ppid };
  const noOwner = process.env.GARDENER_NO_OWNER === '1';
  let why = 'GARDENER_NO_OWNER=1';
  if (!noOwner) {
    const dialed = await dialLiveOwner(home, hello, {
      dialMs: msFromEnv(PROXY_DIAL_ENV, PROXY_DIAL_MS, 1, say),
      waitMs: msFromEnv(PROXY_OWNER_WAIT_ENV, PROXY_OWNER_WAIT_MS, 1, say),
      log: say,
    });
    if (!dialed.socket && dialed.silent) {
      const { OwnerNotAnsweringError } = await import('../../errors.js');
      throw new OwnerNotAnsweringError(dialed.silent.pid, home, dialed.silent.waitedMs, dialed.why);
    }
    if (dialed.socket && dialed.reply.ok && dialed.reply.gardener === VERSION) {
      say(`proxying to the owner (pid ${dialed.reply.pid}, ${dialed.socketPath})`);
      const { runProxy } = await import('../../transports/proxy/mcp-proxy.js');
      await runProxy({
        socket: dialed.socket,
        rest: dialed.rest,
        folder,
        log: say,
        // The proxy's fallback: in-process, moving back to an owner when one answers again.
        serveInProcess: async (stdin, stdout) => {
          const session = await serveMovable({ folder, home, hello, findOwners: true, stdin, stdout, processHooks: false });
          return { close: () => session.close(), closed: session.closed.then(() => {}) };
        },
      });
      process.exit(0);
    }
    if (dialed.socket) {
      why = `the owner answered but refused: ${dialed.reply.error ?? `it runs Gardener ${dialed.reply.gardener}`}`;
      dialed.socket.destroy();
    } else {
      why = dialed.untrusted ? `no verified owner: ${dialed.why}` : dialed.why;
    }
  }
  say(`serving in-process (${why})`);
  const session = await serveMovable({ folder, home, hello, findOwners: !noOwner });
  // Everything is joined by now; exit rather than linger on an unref'd handle.
  process.exit(await session.closed);
}

/**
 * The session served in-process (transports/stdio/handover.ts): it moves to an owner of this home
 * that answers (unless GARDENER_NO_OWNER=1), and to a version installed over this one.
 */
async function serveMovable(o: { folder: string; home: string; hello: ClientHello; findOwners: boolean; stdin?: Readable; stdout?: Writable; processHooks?: boolean }) {
  // What the first frame needs; the rest (the upgrade watch, spawning) loads once it is served.
  const [{ runStdioServer }, handover, { dialOwnerOf }, { PROXY_LIVENESS_ENV, PROXY_LIVENESS_MS }] = await Promise.all([
    import('../../transports/stdio/stdio-server.js'),
    import('../../transports/stdio/handover.js'),
    import('../../owner/dial-home.js'),
    import('../../transports/proxy/owner-liveness.js'),
  ]);
  const dialMs = msFromEnv(PROXY_DIAL_ENV, PROXY_DIAL_MS, 1, say);
  return handover.startMovableSession({
    stdin: o.stdin,
    stdout: o.stdout,
    processHooks: o.processHooks,
    livenessMs: msFromEnv(PROXY_LIVENESS_ENV, PROXY_LIVENESS_MS, 4, say),
    serveInProcess: (stdin, stdout) => runStdioServer({ folder: o.folder, stdin, stdout, processHooks: o.processHooks }),
    watchUpgrade: (onUpgrade) => {
      let stop = () => {};
      let stopped = false;
      void import('../../owner/upgrade-watch.js').then(({ watchForUpgrade, UPGRADE_CHECK_MS }) => {
        if (!stopped) stop = watchForUpgrade({ running: VERSION, everyMs: msFromEnv(UPGRADE_CHECK_ENV, UPGRADE_CHECK_MS, 1, say), onUpgrade });
      });
      return () => {
        stopped = true;
        stop();
      };
    },
    // The same command line, from the files now on disk; its log goes where this one's goes.
    startNewVersion: async (version) => {
      const { spawn } = await import('node:child_process');
      return handover.childServer(spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: ['pipe', 'pipe', 'inherit'] }), version);
    },
    findOwner: o.findOwners
      ? async () => {
          const dialed = await dialOwnerOf(o.home, o.hello, dialMs);
          if (!dialed.socket) return null;
          if (dialed.reply.ok && dialed.reply.gardener === VERSION) return handover.ownerSocketServer(dialed.socket, dialed.rest, dialed.reply.pid);
          dialed.socket.destroy();
          return null;
        }
      : undefined,
    log: say,
  });
}
