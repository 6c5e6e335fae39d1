/**
 * The page's logins: one-time codes traded for session cookies.
 *
 * `gardener open` asks the owner (with the bearer token) for a code and prints a URL holding it.
 * The code is good once and for LOGIN_CODE_TTL_MS: opening the URL spends it and sets a session
 * cookie, then redirects to `/`, so neither the token nor the code stays in the address bar or
 * the history. Codes and sessions live in this process only: a restarted owner forgets them
 * (run `gardener open` again). Both are 32 random bytes, compared through their SHA-256 (a
 * Map lookup on a hash leaks nothing of the secret's value through timing).
 */
import { createHash, randomBytes } from 'node:crypto';

/** How long a login code is good, in ms: long enough to click, short enough not to be found later. */
export const LOGIN_CODE_TTL_MS = 60_000;
/** How long a page session lives without a request, in ms (a working day). */
export const PAGE_SESSION_IDLE_MS = 12 * 60 * 60_000;
/** Codes waiting at once: a client holding the token may ask in a loop; it must not bloat the owner. */
export const MAX_PENDING_CODES = 64;
/** Page sessions kept at once; the least recently used goes first past it. */
export const MAX_PAGE_SESSIONS = 64;
/** The session cookie's name. */
export const PAGE_COOKIE = 'gardener_page';

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface LoginCodesOptions {
  /**
   * @default Date.now: the wall clock, on purpose (unlike the bounds of src/timers.ts): a code or
   * a page session left before a sleep is as old as the time that passed.
   */
  now?: () => number;
}

export class LoginCodes {
  #now: () => number;
  /** digest of a code → when it expires. */
  #codes = new Map<string, number>();
  /** digest of a session id → when it was last used. */
  #sessions = new Map<string, number>();

  constructor(options: LoginCodesOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** A fresh one-time code. */
  issue(): { code: string; expires_in_s: number } {
    const now = this.#now();
    for (const [k, until] of this.#codes) if (until <= now) this.#codes.delete(k);
    while (this.#codes.size >= MAX_PENDING_CODES) this.#codes.delete(this.#codes.keys().next().value!);
    const code = randomBytes(32).toString('hex');
    this.#codes.set(digest(code), now + LOGIN_CODE_TTL_MS);
    return { code, expires_in_s: LOGIN_CODE_TTL_MS / 1000 };
  }

  /** Spends a code: a new session id when it was good (once, in time), else null. */
  redeem(code: string): string | null {
    const key = digest(code);
    const until = this.#codes.get(key);
    this.#codes.delete(key);
    if (until === undefined || until <= this.#now()) return null;
    const id = randomBytes(32).toString('hex');
    while (this.#sessions.size >= MAX_PAGE_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    this.#sessions.set(digest(id), this.#now());
    return id;
  }

  /** Is this cookie value a live session? Touches it when it is. */
  check(id: string | undefined): boolean {
    if (!id || !/^[0-9a-f]{64}$/.test(id)) return false;
    const key = digest(id);
    const last = this.#sessions.get(key);
    if (last === undefined) return false;
    if (this.#now() - last > PAGE_SESSION_IDLE_MS) {
      this.#sessions.delete(key);
      return false;
    }
    this.#sessions.delete(key);
    this.#sessions.set(key, this.#now());
    return true;
  }

  /** Ends a session (log out). */
  end(id: string | undefined): void {
    if (id) this.#sessions.delete(digest(id));
  }
}

/** The value of the page cookie in a Cookie header. */
export function pageCookieOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === PAGE_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}
