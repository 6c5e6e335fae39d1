/**
 * The owner's HTTP listener on 127.0.0.1: routing and the security gate, nothing else.
 *
 *   GET  /healthz            version and uptime (no token)
 *   GET  /api/brains         the open brains: armed, backlog, last tick, sessions
 *   POST /api/tools/<name>   REST: body = the tool's arguments (rest-tools.ts)
 *   *    /mcp                MCP Streamable HTTP (mcp-http-sessions.ts)
 *   POST /api/page/login     a one-time login code for the page (token; `gardener open`)
 *   /, /login, /page/…       the page, when one is mounted (src/page/): a cookie, not the token
 *
 * Every route passes the guard (Host, Origin, token; http-guard.ts) and the body bounds
 * (413 past 4 MiB; large bodies read at once share one budget: read-body.ts).
 * Every body is decoded by the one rule for untrusted JSON (wire/untrusted-json.ts): bytes that
 * are not UTF-8, JSON nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_VALUES
 * values, or text that is not JSON are refused
 * with 400 before anything is built (a million-deep `[[[…]]]` parsed on this thread stalled
 * every other client for seconds): a JSON-RPC error on /mcp, a GDN code on REST. Large bodies
 * are decoded one per turn of the event loop (decode-lane.ts), small ones at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRequest } from './http-guard.js';
import { isLoopbackHost } from './loopback.js';
import { isOAuthDiscovery, NO_OAUTH_MESSAGE } from './no-oauth.js';
import { BodyAbandonedError, BodyBudget, BodyTooLargeError, MAX_BODY_BYTES, MAX_BODY_DRAIN_BYTES, SMALL_BODY_BYTES, readBody, type ReadBody } from './read-body.js';
import { DecodeLane } from './decode-lane.js';
import { McpHttpSessions } from './mcp-http-sessions.js';
import { HttpSessions } from './session-bounds.js';
import { RestTools } from './rest-tools.js';
import { json, sendError } from './http-answers.js';
import type { PageMount, SessionHost } from '../session-host.js';
import type { Logger } from '../../log.js';
import { VERSION } from '../../version.js';
import {
  ForbiddenError,
  HttpRequestFailedError,
  InvalidArgumentError,
  JsonTooDeepError,
  JsonTooManyValuesError,
  ListenError,
  NoOAuthError,
  RequestTooLargeError,
  RouteNotFoundError,
  UnauthorizedError,
} from '../../errors.js';
import { decodeUntrustedJson, exceededJsonBound, MAX_JSON_DEPTH, MAX_JSON_VALUES, type DecodedJson } from '../../wire/index.js';

/** The owner's default HTTP port ("GRDN" would not fit; 7171 is unassigned and easy to type). */
export const DEFAULT_HTTP_PORT = 7171;

export interface HttpListenerOptions {
  host: string;
  port: number;
  token: string;
  log: Logger;
  /** Opens the sessions of /mcp and REST (the owner's). */
  sessionHost: SessionHost;
  brains: () => unknown;
  startedAt: number;
  /** Clock for idle reaping, injectable for tests. @default Date.now */
  now?: () => number;
  /** HTTP sessions kept at once, MCP and REST together (session-bounds.ts). @default MAX_SESSIONS */
  maxSessions?: number;
  /** Bytes of large bodies read at once, all clients together (read-body.ts). @default MAX_BODY_BYTES_IN_FLIGHT */
  maxBodyBytesInFlight?: number;
  /** The page (src/page/), mounted by the owner; none: its paths are 404. */
  page?: PageMount;
}

export class HttpListener {
  readonly mcp: McpHttpSessions;
  readonly rest: RestTools;
  /** Every HTTP session, MCP and REST: one map, one reaper (session-bounds.ts). */
  readonly sessions: HttpSessions;
  /** Room for the large bodies being read now. */
  readonly bodies: BodyBudget;
  #server: Server;
  #options: HttpListenerOptions;
  #decodes = new DecodeLane();
  #url: string | null = null;

  constructor(options: HttpListenerOptions) {
    this.#options = options;
    this.bodies = new BodyBudget(options.maxBodyBytesInFlight);
    this.sessions = new HttpSessions({ max: options.maxSessions, now: options.now });
    this.mcp = new McpHttpSessions({ log: options.log, sessionHost: options.sessionHost, sessions: this.sessions });
    this.rest = new RestTools({ sessionHost: options.sessionHost, sessions: this.sessions });
    this.#server = createServer((req, res) => {
      this.#route(req, res).catch((err: Error) => {
        options.log.error('http request failed', { url: req.url, error: err.message });
        if (!res.headersSent) sendError(res, new HttpRequestFailedError(err));
        else res.end();
      });
    });
  }

  get url(): string | null {
    return this.#url;
  }

  listen(): Promise<string> {
    const { host, port } = this.#options;
    return new Promise((resolve, reject) => {
      this.#server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new ListenError(`${host}:${port}`, err.code === 'EADDRINUSE' ? `port ${port} is in use: pick another with --port (or --port 0 for any free one)` : err.message, { cause: err })),
      );
      this.#server.listen(port, host, () => {
        const addr = this.#server.address() as AddressInfo;
        const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
        this.#url = `http://${h}:${addr.port}`;
        resolve(this.#url);
      });
    });
  }

  stopAccepting(): Promise<void> {
    // close() stops accepting now; its callback would wait for every connection to end.
    this.#server.close();
    this.#server.closeIdleConnections();
    return Promise.resolve();
  }

  async endSessions(): Promise<void> {
    this.#options.page?.close();
    await this.sessions.close();
    this.#server.closeAllConnections();
  }

  async #route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const o = this.#options;
    const extraHosts = isLoopbackHost(o.host) ? [] : [o.host];
    const pagePath = o.page?.owns(path) ?? false;
    const refusal = checkRequest(req, { token: o.token, extraHosts, needsToken: path !== '/healthz' && !isOAuthDiscovery(path) && !pagePath });
    if (refusal) {
      const headers: Record<string, string> = refusal.status === 401 ? { 'www-authenticate': refusal.challenge! } : {};
      return sendError(res, { code: refusal.status === 401 ? UnauthorizedError.code : ForbiddenError.code, message: refusal.message }, headers);
    }
    if (isOAuthDiscovery(path)) return sendError(res, { code: NoOAuthError.code, message: NO_OAUTH_MESSAGE });
    if (req.method === 'GET' && path === '/healthz') {
      return json(res, 200, { ok: true, version: VERSION, uptime_s: Math.round((Date.now() - o.startedAt) / 1000) });
    }
    if (req.method === 'GET' && path === '/api/brains') return json(res, 200, { brains: o.brains() });
    if (req.method === 'POST' && path === '/api/page/login' && o.page) return json(res, 200, o.page.issueCode());
    if (pagePath) {
      // The page's cookie is checked before its body is read: no session, nothing read.
      const closed = o.page!.gate(req, path);
      if (closed) return sendError(res, closed);
    }

    let body: unknown;
    if (req.method === 'POST') {
      let read: ReadBody;
      try {
        // The shape is judged on the first bytes too: a body already too deep or too wide there
        // is refused without being held.
        read = await readBody(req, { budget: this.bodies, refuseByPrefix: (prefix) => exceededJsonBound(prefix) !== null });
      } catch (err) {
        if (err instanceof BodyAbandonedError) return;
        if (err instanceof BodyTooLargeError) {
          if (err.unread !== null && err.unread <= MAX_BODY_DRAIN_BYTES) req.resume();
          else res.setHeader('connection', 'close');
          return sendError(res, new RequestTooLargeError(MAX_BODY_BYTES));
        }
        throw err;
      }
      let decoded: DecodedJson;
      try {
        // A refused body is its condemning prefix, and the one rule refuses it the same way.
        const bytes = read.body;
        if (bytes.length === 0) decoded = { ok: true, value: undefined };
        else if (bytes.length <= SMALL_BODY_BYTES) decoded = decodeUntrustedJson(bytes);
        else decoded = await this.#decodes.run(() => decodeUntrustedJson(bytes));
      } finally {
        read.release();
      }
      if (!decoded.ok) return refuseBody(res, path === '/mcp', decoded);
      body = decoded.value;
    }
    if (pagePath) {
      return o.page!.handle(req, res, url, body, {
        brains: () => o.brains(),
        callTool: (folder, name, args) => this.rest.call(name, args, folder),
      });
    }
    const folder = (req.headers['x-gardener-folder'] as string | undefined) ?? url.searchParams.get('folder');
    if (path === '/mcp') return this.mcp.handle(req, res, body, folder);
    const tool = /^\/api\/tools\/([a-z_]+)$/.exec(path);
    if (tool && req.method === 'POST') {
      if (!folder) {
        return sendError(res, new InvalidArgumentError('name the session folder with the X-Gardener-Folder header or the folder query parameter'));
      }
      return this.rest.handle(res, tool[1]!, body ?? {}, folder);
    }
    sendError(res, new RouteNotFoundError(req.method, path));
  }
}

/** 400 for a body the untrusted-JSON rule refused: JSON-RPC on /mcp (-32700/-32600), a GDN code on REST. */
function refuseBody(res: ServerResponse, mcp: boolean, refused: Extract<DecodedJson, { ok: false }>): void {
  if (mcp) return json(res, 400, { jsonrpc: '2.0', error: { code: refused.code, message: refused.message }, id: null });
  const err =
    refused.reason === 'depth'
      ? new JsonTooDeepError(MAX_JSON_DEPTH)
      : refused.reason === 'values'
        ? new JsonTooManyValuesError(MAX_JSON_VALUES)
        : new InvalidArgumentError(
          refused.reason === 'utf8'
            ? 'the request body is not valid UTF-8: send the tool arguments as a UTF-8 JSON object'
            : 'the request body is not JSON: send the tool arguments as a JSON object',
        );
  sendError(res, err);
}
