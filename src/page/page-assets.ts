/**
 * The page's files, bundled at build time into dist/page/ (scripts/build-page.mjs) and read
 * only when a browser asks for one: an agent's session never opens them. Each is read once and
 * kept (they are small and never change while the owner runs).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** dist/page/, beside dist/src/ (this file is dist/src/page/page-assets.js once built). */
export const PAGE_ASSETS_DIR = fileURLToPath(new URL('../../page/', import.meta.url));

/**
 * No inline script, no inline style attribute, nothing from elsewhere: the page loads its own
 * bundle and talks to its own origin only; it may not be framed.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

export class PageAssets {
  #dir: string;
  #cache = new Map<string, Buffer>();

  constructor(dir: string = PAGE_ASSETS_DIR) {
    this.#dir = dir;
  }

  get dir(): string {
    return this.#dir;
  }

  /** Is this one of the page's files? */
  has(name: string): boolean {
    return Object.hasOwn(TYPES, name);
  }

  typeOf(name: string): string {
    return TYPES[name]!;
  }

  /** The file's bytes, or null when the build did not make it. */
  async read(name: string): Promise<Buffer | null> {
    if (!this.has(name)) return null;
    let bytes = this.#cache.get(name);
    if (!bytes) {
      try {
        bytes = await readFile(join(this.#dir, name));
      } catch {
        return null;
      }
      this.#cache.set(name, bytes);
    }
    return bytes;
  }
}
