/**
 * How HTTP answers: JSON bodies, and the one table from a GDN code to its HTTP status, for the
 * listener's own refusals (the guard, the body bounds, routes) and for REST's tool results
 * alike. A code the table does not name is a 500: a tool that failed in a way no rule foresaw.
 * docs/errors.md gives each code's status beside its meaning.
 */
import type { ServerResponse } from 'node:http';

const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  GDN_INVALID_ARGUMENT: 400,
  GDN_FOLDER_NOT_FOUND: 400,
  GDN_BRAIN_NOT_FOUND: 400,
  GDN_JSON_TOO_DEEP: 400,
  GDN_JSON_TOO_MANY_VALUES: 400,
  GDN_UNAUTHORIZED: 401,
  GDN_FORBIDDEN: 403,
  GDN_UNKNOWN_TOOL: 404,
  GDN_NOT_FOUND: 404,
  GDN_NO_OAUTH: 404,
  GDN_BODY_TOO_LARGE: 413,
  GDN_TOO_MANY_SESSIONS: 503,
  GDN_REST_TIMEOUT: 504,
};

/** The HTTP status of an answer carrying this GDN code. */
export function statusOf(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}

export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }).end(body);
}

/** `{"error":{code,message}}` with the status the table gives its code. */
export function sendError(res: ServerResponse, error: { code: string; message: string }, headers: Record<string, string> = {}): void {
  json(res, statusOf(error.code), { error: { code: error.code, message: error.message } }, headers);
}
