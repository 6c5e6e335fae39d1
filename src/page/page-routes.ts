/**
 * The page's server side: login, the cookie, the event stream, the static files, and the page
 * API, which is the REST seam and nothing else (a tool call the page makes is the call a script
 * makes: same session rules, same path confinement, same redaction). It is mounted by the HTTP
 * listener through the session-host API (transports/session-host.ts PageMount), which keeps its
 * Host/Origin guard in front of every page path.
 *
 *   GET  /login?code=…           spends a one-time code: sets the session cookie, 303 to `/`
 *   GET  /                       the page (index.html), CSP without inline script
 *   GET  /page/app.js|app.css    the bundle (read from dist/page/ only when asked)
 *   GET  /page/api/brains        what GET /api/brains answers
 *   GET  /page/api/events        server-sent events: `brains` whenever the list changes
 *   POST /page/api/tools/<name>  a tool call through the REST seam (?folder=…)
 *   POST /page/api/read/lines    code lines around hits, {hits:[{path,line}]} (?folder=…)
 *   POST /page/api/read/history  a file's recent commits and the files that change with it, {path}
 *   POST /page/api/brains/remove removes a brain whose folders are all gone, {id}
 *   POST /page/api/logout        ends the page session
 *
 * Every request but /login, `/` and the static files (none of them holds anything of a brain) needs the cookie (GDN_PAGE_LOGIN_REQUIRED);
 * every POST also needs a same-origin header (GDN_PAGE_CROSS_SITE): SameSite=Strict already keeps
 * the cookie off other sites' requests, and the header check holds where a browser does not.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { InvalidArgumentError, PageAssetsMissingError, PageCrossSiteError, PageLoginCodeInvalidError, PageLoginRequiredError, RouteNotFoundError } from '../errors.js';
import { LoginCodes, PAGE_COOKIE, pageCookieOf, type LoginCodesOptions } from './login-codes.js';
import { PAGE_CSP, PageAssets } from './page-assets.js';
import { BrainsStream, type BrainsStreamOptions } from './brains-stream.js';

export interface PageSeam {
  brains(): unknown;
  callTool(folder: string, name: string, args: unknown): Promise<{ status: number; value: unknown }>;
}

export interface PageRoutesOptions extends LoginCodesOptions, BrainsStreamOptions {
  /**
   * Every brain of the home for the brains view (open ones and closed ones read from their
   * stores); without it the page shows what `GET /api/brains` says (the open ones).
   */
  brains?: () => unknown;
  /**
   * The reads the page makes that are not tools (code lines around hits, a file's history):
   * src/tools/page-reads.ts, under the tools' rules. Without it those routes answer 404.
   */
  reads?: {
    lines(folder: string, body: unknown): Promise<unknown>;
    history(folder: string, body: unknown): Promise<unknown>;
  };
  /**
   * Removes a brain whose folders are all gone (the owner refuses one whose folders are there,
   * GDN_BRAIN_NOT_GONE). Without it the route answers 404.
   */
  removeBrain?: (id: string) => Promise<unknown>;
  /** Where the bundle is. @default PAGE_ASSETS_DIR */
  assetsDir?: string;
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

const PUBLIC_PATHS = new Set(['/', '/login', '/favicon.ico', '/page/app.js', '/page/app.css']);

export class PageRoutes {
  readonly logins: LoginCodes;
  #assets: PageAssets;
  #stream: BrainsStream;
  #brains: (() => unknown) | undefined;
  #reads: PageRoutesOptions['reads'];
  #removeBrain: PageRoutesOptions['removeBrain'];

  constructor(options: PageRoutesOptions = {}) {
    this.#brains = options.brains;
    this.#reads = options.reads;
    this.#removeBrain = options.removeBrain;
    this.logins = new LoginCodes(options);
    this.#assets = new PageAssets(options.assetsDir);
    this.#stream = new BrainsStream(options);
  }

  owns(path: string): boolean {
    return path === '/' || path === '/login' || path === '/favicon.ico' || path.startsWith('/page/');
  }

  gate(req: IncomingMessage, path: string): { status: number; code: string; message: string } | null {
    if (PUBLIC_PATHS.has(path)) return null;
    if (!this.logins.check(pageCookieOf(req.headers.cookie))) return refusal(401, new PageLoginRequiredError());
    if (req.method === 'POST' && !sameOrigin(req)) return refusal(403, new PageCrossSiteError());
    return null;
  }

  issueCode(): { code: string; expires_in_s: number } {
    return this.logins.issue();
  }

  close(): void {
    this.#stream.close();
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL, body: unknown, seam: PageSeam): Promise<void> {
    const path = url.pathname;
    const all = this.#brains;
    const rest = seam;
    if (all) seam = { brains: all, callTool: (folder, name, args) => rest.callTool(folder, name, args) };
    if (req.method === 'GET' && path === '/login') return this.#login(res, url);
    if (req.method === 'GET' && path === '/') return this.#file(res, 'index.html');
    if (req.method === 'GET' && path === '/favicon.ico') return void res.writeHead(204, SECURITY_HEADERS).end();
    if (req.method === 'GET' && path.startsWith('/page/') && this.#assets.has(path.slice(6))) return this.#file(res, path.slice(6));
    if (req.method === 'GET' && path === '/page/api/brains') return send(res, 200, { brains: seam.brains() });
    if (req.method === 'GET' && path === '/page/api/events') return this.#stream.add(req, res, seam);
    if (req.method === 'POST' && path === '/page/api/logout') {
      this.logins.end(pageCookieOf(req.headers.cookie));
      return send(res, 200, { ok: true }, { 'set-cookie': `${PAGE_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` });
    }
    const tool = /^\/page\/api\/tools\/([a-z_]+)$/.exec(path);
    if (tool && req.method === 'POST') {
      const folder = url.searchParams.get('folder') ?? '';
      const { status, value } = await seam.callTool(folder, tool[1]!, body ?? {});
      return send(res, status, value);
    }
    const read = /^\/page\/api\/read\/(lines|history)$/.exec(path);
    if (read && req.method === 'POST' && this.#reads) {
      const folder = url.searchParams.get('folder') ?? '';
      return answer(res, () => this.#reads![read[1] as 'lines' | 'history'](folder, body));
    }
    if (req.method === 'POST' && path === '/page/api/brains/remove' && this.#removeBrain) {
      const id = (body as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'string' || id.length === 0 || id.length > 200) {
        const err = new InvalidArgumentError('name the brain to remove as {"id": "<brain id>"}');
        return send(res, 400, { error: { code: err.code, message: err.message } });
      }
      return answer(res, () => this.#removeBrain!(id));
    }
    const err = new RouteNotFoundError(req.method, path);
    send(res, 404, { error: { code: err.code, message: err.message } });
  }

  #login(res: ServerResponse, url: URL): void {
    const id = this.logins.redeem(url.searchParams.get('code') ?? '');
    if (!id) {
      const err = new PageLoginCodeInvalidError();
      const text = `${err.message} [${err.code}]\n`;
      res.writeHead(403, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) }).end(text);
      return;
    }
    // The code leaves the address bar: the browser follows to the clean URL and keeps only that.
    res.writeHead(303, { ...SECURITY_HEADERS, location: '/', 'set-cookie': `${PAGE_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/`, 'content-length': '0' }).end();
  }

  async #file(res: ServerResponse, name: string): Promise<void> {
    const bytes = await this.#assets.read(name);
    if (!bytes) {
      const err = new PageAssetsMissingError(this.#assets.dir);
      return send(res, 503, { error: { code: err.code, message: err.message } });
    }
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': this.#assets.typeOf(name), 'content-length': String(bytes.length) }).end(bytes);
  }
}

/** 200 with what `work` answers; a Gardener error as its code and message (404 not found, 409 not gone, else 400). */
async function answer(res: ServerResponse, work: () => Promise<unknown>): Promise<void> {
  let value: unknown;
  try {
    value = await work();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (typeof e.code !== 'string' || !e.code.startsWith('GDN_')) throw err;
    const status = e.code === 'GDN_BRAIN_NOT_FOUND' ? 404 : e.code === 'GDN_BRAIN_NOT_GONE' ? 409 : 400;
    return send(res, status, { error: { code: e.code, message: e.message } });
  }
  send(res, 200, value);
}

function refusal(status: number, err: { code: string; message: string }) {
  return { status, code: err.code, message: err.message };
}

/** An Origin naming this very host, or the browser's own word that the request is same-origin. */
function sameOrigin(req: IncomingMessage): boolean {
  const host = req.headers.host;
  const origin = req.headers.origin;
  if (origin !== undefined) return host !== undefined && origin === `http://${host}`;
  return req.headers['sec-fetch-site'] === 'same-origin';
}

function send(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
}
