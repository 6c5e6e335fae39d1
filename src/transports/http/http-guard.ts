/**
 * Who may talk to the owner over HTTP (MCP transport spec + security best practices):
 *   - a Host header that is not loopback is refused (403): a DNS-rebinding page reaches
 *     127.0.0.1 under its own name, and the Host header is what betrays it;
 *   - an Origin header, when present, must be a loopback origin (403): browsers send it, and a
 *     foreign page must not drive tools;
 *   - every route but /healthz needs the bearer token (401), compared in constant time. The
 *     owner makes the token and hands it in; the check is HTTP's alone.
 * A non-loopback bind (asked for explicitly) adds that bind address to the allowed hosts; the
 * token is required either way.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from './loopback.js';

export interface Refusal {
  status: 401 | 403;
  /** The WWW-Authenticate value of a 401 (RFC 6750: an error only when a token was sent). */
  challenge?: string;
  message: string;
}

function hostnameOf(value: string, withScheme: boolean): string | null {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export function checkRequest(req: IncomingMessage, opts: { token: string; extraHosts?: readonly string[]; needsToken: boolean }): Refusal | null {
  const allowed = (h: string | null) => h !== null && (isLoopbackHost(h) || (opts.extraHosts ?? []).includes(h));
  const host = req.headers.host;
  if (!host || !allowed(hostnameOf(host, false))) {
    return { status: 403, message: `Host "${host ?? ''}" is not a loopback name: the owner only answers requests addressed to 127.0.0.1 or localhost` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowed(hostnameOf(origin, true))) {
    return { status: 403, message: `Origin "${origin}" is not a loopback origin: browser pages of other sites may not call the owner` };
  }
  if (!opts.needsToken) return null;
  const auth = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m || !tokenMatches(m[1]!, opts.token)) {
    const message = m
      ? 'the bearer token is wrong: send "Authorization: Bearer <token>" with the token `gardener token` prints (it changes only if the token file is removed)'
      : 'a bearer token is required: send "Authorization: Bearer <token>" with the token `gardener token` prints';
    const challenge = m ? `Bearer realm="gardener", error="invalid_token", error_description="${message.replace(/"/g, "'")}"` : 'Bearer realm="gardener"';
    return { status: 401, message, challenge };
  }
  return null;
}

/** Constant-time comparison of a presented bearer token (hashes first: lengths may differ). */
function tokenMatches(presented: string, token: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
