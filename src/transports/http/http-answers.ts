/**
 * How HTTP answers: JSON bodies, and the one table from a GDN code to its HTTP status, for the
 * listener's own refusals (the guard, the body bounds, routes) and for REST's tool results
 * alike: 4xx for what the caller changes (its input, or a state to make first), 503 for what
 * passes by itself (a lock, a restarting worker, a stopping owner: retry), 507 for a disk that
 * is full or failing. A code the table does not name is a 500: a tool that failed in a way no
 * rule foresaw, or a store this user cannot fix from the request (corrupt, unreadable).
 * docs/errors.md gives each code's status beside its meaning.
 */
import type { ServerResponse } from 'node:http';
import {
  AbortedError,
  BrainNotFoundError,
  FolderNotFoundError,
  ForbiddenError,
  InvalidArgumentError,
  JsonTooDeepError,
  JsonTooManyValuesError,
  NoOAuthError,
  NoteSecretError,
  PageAssetsMissingError,
  PageCrossSiteError,
  PageLoginCodeInvalidError,
  PageLoginRequiredError,
  RequestTooLargeError,
  RestTimeoutError,
  RouteNotFoundError,
  TooManySessionsError,
  UnauthorizedError,
  UnknownToolError,
} from '../../errors.js';

const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  [InvalidArgumentError.code]: 400,
  [FolderNotFoundError.code]: 400,
  [BrainNotFoundError.code]: 400,
  [JsonTooDeepError.code]: 400,
  [JsonTooManyValuesError.code]: 400,
  [UnauthorizedError.code]: 401,
  [ForbiddenError.code]: 403,
  [UnknownToolError.code]: 404,
  [RouteNotFoundError.code]: 404,
  [NoOAuthError.code]: 404,
  [NoteSecretError.code]: 400,
  GDN_NO_CANDIDATE: 409,
  GDN_SKELETON_CONFLICT: 409,
  [RequestTooLargeError.code]: 413,
  [TooManySessionsError.code]: 503,
  GDN_STORE_LOCKED: 503,
  GDN_WORKER_CRASHED: 503,
  GDN_WORKER_TIMEOUT: 503,
  [AbortedError.code]: 503,
  GDN_STORE_IO: 507,
  [RestTimeoutError.code]: 504,
  [PageLoginRequiredError.code]: 401,
  [PageLoginCodeInvalidError.code]: 403,
  [PageCrossSiteError.code]: 403,
  [PageAssetsMissingError.code]: 503,
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
