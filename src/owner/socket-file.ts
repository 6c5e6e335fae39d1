/**
 * The owner's socket file: the one path every client of the home dials, so it must stay where
 * they look for as long as the owner lives. Under a service manager that is weeks, and the file
 * can go from under a running owner: a temp cleaner ages out the `<tmp>/gardener-<uid>/`
 * fallback (systemd-tmpfiles after 10 days, macOS after 3), someone empties the run folder or
 * `XDG_RUNTIME_DIR` by hand. The listening server goes on, but nobody can reach it again: every
 * `gardener mcp` then waits for an owner that holds the lock and never answers.
 *
 * So the owner knows the device and inode of the socket it bound, and every OWNER_FILES_CHECK_MS
 * (owner.ts) it looks at the path. Gone: it makes the folder again (0700, this user's, as at start), binds a
 * new socket under a private name and links it into place (a link never replaces a file that
 * appeared meanwhile), and remembers the new inode. Something else there (a file, another
 * socket) was not made by this owner: it is named once in the log and left alone, as at start.
 * The owner removes only the socket it bound, by inode (`removeSocketFile`).
 */
import { linkSync, lstatSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../log.js';
import { fileIdOf, isFileAt, type FileId } from './file-id.js';

/** Removes the socket at `path` only if it is the one this owner bound (same device and inode). */
export function removeSocketFile(path: string, id: FileId | null): void {
  if (!isFileAt(path, id)) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** A private name beside `socket` to bind under before the socket goes into place. */
export function bindPathBeside(socket: string, n: number): string {
  return join(dirname(socket), `.${process.pid.toString(36)}${n ? `-${n}` : ''}.bind`);
}

export interface SocketKeeperOptions {
  /** The socket path clients dial. */
  path: string;
  /** The socket this owner has in place now. */
  current: () => FileId | null;
  /** Makes the socket folder again if it is gone; why it is not safe to use, or null. */
  prepareFolder: () => string | null;
  /** Listens on a new socket at `bindPath` (the listener keeps answering on it). */
  bind: (bindPath: string) => Promise<void>;
  /** The new socket is in place. */
  rebound: (id: FileId) => void;
  log: Logger;
}

/** Looks at the socket path when asked (the owner asks every OWNER_FILES_CHECK_MS) and binds the socket again if it is gone. */
export class SocketKeeper {
  readonly #o: SocketKeeperOptions;
  #binds = 0;
  /** What was last said about the path, so a state that stays is said once. */
  #said = '';

  constructor(options: SocketKeeperOptions) {
    this.#o = options;
  }

  async check(): Promise<void> {
    try {
      await this.#check();
    } catch (err) {
      this.#sayOnce('the owner socket could not be bound again (tried again later)', { error: (err as Error).message });
    }
  }

  async #check(): Promise<void> {
    const o = this.#o;
    if (isFileAt(o.path, o.current())) {
      this.#said = '';
      return;
    }
    const st = lstatOrNull(o.path);
    if (st) {
      return this.#sayOnce('the owner socket path holds something this owner did not bind: left alone (clients reaching it are refused by its missing proof)', { is_socket: st.isSocket() });
    }
    const unsafe = o.prepareFolder();
    if (unsafe) return this.#sayOnce('the owner socket was removed and its folder is not safe to bind in again', { why: unsafe });
    const bindPath = bindPathBeside(o.path, ++this.#binds);
    removeSocketFile(bindPath, fileIdOf(bindPath));
    await o.bind(bindPath);
    try {
      linkSync(bindPath, o.path);
    } catch (err) {
      // EEXIST: something took the path meanwhile; it is left alone and looked at again next time.
      return this.#sayOnce('the owner socket could not be put back', { error: (err as Error).message });
    } finally {
      try {
        unlinkSync(bindPath);
      } catch {
        // Gone already.
      }
    }
    const id = fileIdOf(o.path);
    if (!id) return;
    o.rebound(id);
    this.#said = '';
    o.log.warn('the owner socket was removed from under the owner: bound again, clients reach it as before', { socket: o.path });
  }

  #sayOnce(what: string, fields: Record<string, unknown>): void {
    if (this.#said === what) return;
    this.#said = what;
    this.#o.log.warn(what, { socket: this.#o.path, ...fields });
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
