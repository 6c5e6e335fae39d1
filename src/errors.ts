/**
 * Every error Gardener throws on purpose. Each has a stable `code` (never reused, listed in
 * docs/errors.md, checked both ways by test/errors-are-documented.test.ts), a `name`, a
 * default message and an optional `cause`. `exitCode` is what the CLI exits with: 2 for bad
 * input the user can fix, 1 for everything else.
 */
export class GardenerError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, options?: { cause?: unknown; exitCode?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GardenerError';
    this.code = code;
    this.exitCode = options?.exitCode ?? 1;
  }
}

/** The one shape an error is answered in as data: a tool's `isError` result, an HTTP error body. */
export function errorBody(err: GardenerError): { error: { code: string; message: string } } {
  return { error: { code: err.code, message: err.message } };
}

/** Bad input the caller can fix: a path, an option, an argument. CLI exit code 2. */
export class InvalidArgumentError extends GardenerError {
  static readonly code = 'GDN_INVALID_ARGUMENT';
  constructor(message: string, options?: { cause?: unknown }) {
    super(InvalidArgumentError.code, message, { ...options, exitCode: 2 });
    this.name = 'InvalidArgumentError';
  }
}

/** A folder given to Gardener does not exist, is not a folder, or cannot be read. */
export class FolderNotFoundError extends GardenerError {
  static readonly code = 'GDN_FOLDER_NOT_FOUND';
  readonly path: string;
  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(FolderNotFoundError.code, `${path}: ${reason}`, { ...options, exitCode: 2 });
    this.name = 'FolderNotFoundError';
    this.path = path;
  }
}

/** No brain covers the folder (in the home that was searched). */
export class BrainNotFoundError extends GardenerError {
  static readonly code = 'GDN_BRAIN_NOT_FOUND';
  readonly path: string;
  readonly home: string | undefined;
  constructor(path: string, home?: string) {
    super(BrainNotFoundError.code, noBrainHint(path, home, `run \`gardener init ${path}\` to create one`), { exitCode: 2 });
    this.name = 'BrainNotFoundError';
    this.path = path;
    this.home = home;
  }
}

/**
 * "No brain covers …", naming the home searched: a host that drops GARDENER_HOME (Codex passes
 * a whitelist) sends the server to the default home, and the fix is to point it at the other.
 */
export function noBrainHint(path: string, home: string | undefined, create: string): string {
  if (home === undefined) return `no brain covers ${path}: ${create}`;
  return (
    `no brain covers ${path} in the Gardener home ${home}: ${create}, or, if the brain is in another home, ` +
    `start the server with GARDENER_HOME set to it (a host may not pass your shell's variables: \`gardener hosts install <host>\` passes it)`
  );
}

/** A brain.db that is not a Gardener store (corrupt, foreign, or from a newer version). */
export class StoreCorruptError extends GardenerError {
  readonly file: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(
      'GDN_STORE_CORRUPT',
      `${file} is not a usable Gardener store (${reason}). It was left untouched. ` +
        `To rebuild it, move it aside (mv "${file}" "${file}.bad") and run \`gardener init <folder>\` again.`,
      { ...options, exitCode: 2 },
    );
    this.name = 'StoreCorruptError';
    this.file = file;
  }
}

/** The store was written by a newer Gardener whose schema this version does not know. */
export class StoreTooNewError extends GardenerError {
  readonly file: string;
  constructor(file: string, found: number, known: number) {
    super(
      'GDN_STORE_TOO_NEW',
      `${file} has schema version ${found}, this Gardener knows up to ${known}: upgrade Gardener`,
      { exitCode: 2 },
    );
    this.name = 'StoreTooNewError';
    this.file = file;
  }
}

/** A worker died or errored; every call pending on it is rejected with this. */
export class WorkerCrashedError extends GardenerError {
  constructor(worker: string, options?: { cause?: unknown }) {
    super('GDN_WORKER_CRASHED', `the ${worker} worker stopped unexpectedly`, options);
    this.name = 'WorkerCrashedError';
  }
}

/** A worker call took longer than its bound. */
export class WorkerTimeoutError extends GardenerError {
  constructor(worker: string, call: string, timeoutMs: number) {
    super('GDN_WORKER_TIMEOUT', `the ${worker} worker did not answer ${call} within ${timeoutMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** An operation was cancelled by its caller. */
export class AbortedError extends GardenerError {
  static readonly code = 'GDN_ABORTED';
  constructor(what: string, options?: { cause?: unknown }) {
    super(AbortedError.code, `${what} was cancelled`, options);
    this.name = 'AbortedError';
  }
}

/** Git failed in a way detection cannot work around. */
export class GitError extends GardenerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('GDN_GIT_FAILED', message, options);
    this.name = 'GitError';
  }
}

/** A home, run folder or token file that others could write (or read, for the token). */
export class UnsafePermissionsError extends GardenerError {
  constructor(path: string, reason: string) {
    super('GDN_UNSAFE_PERMISSIONS', `refusing to start: ${reason.startsWith(path) ? reason : `${path} ${reason}`}`, { exitCode: 2 });
    this.name = 'UnsafePermissionsError';
  }
}

/** The owner's HTTP port or socket path cannot be bound. */
export class ListenError extends GardenerError {
  constructor(what: string, reason: string, options?: { cause?: unknown }) {
    super('GDN_LISTEN_FAILED', `cannot listen on ${what}: ${reason}`, { ...options, exitCode: 2 });
    this.name = 'ListenError';
  }
}

/** No owner answers on this home's socket (`gardener serve --status/--stop`). */
export class OwnerNotRunningError extends GardenerError {
  constructor(home: string) {
    super('GDN_OWNER_NOT_RUNNING', `no owner is running for ${home}: start one with \`gardener serve\``);
    this.name = 'OwnerNotRunningError';
  }
}

/**
 * Removing brains found an owner holding the home (its lock) that did not answer on its socket:
 * a running owner removes them itself, so this is an owner that is stuck, or one of another
 * version that does not know the request.
 */
export class OwnerHoldsHomeError extends GardenerError {
  static readonly code = 'GDN_OWNER_HOLDS_HOME';
  constructor(home: string, pid: number | null, why: string) {
    super(
      OwnerHoldsHomeError.code,
      `the owner (pid ${pid ?? 'unknown'}) holds ${home} but did not remove the brains (${why}); nothing was removed: see it with \`gardener serve --status\`, or stop it (\`gardener serve --stop\`) and run this again`,
      { exitCode: 2 },
    );
    this.name = 'OwnerHoldsHomeError';
  }
}

/** The page removes only brains whose folders are all gone; this one's are there. */
export class BrainNotGoneError extends GardenerError {
  static readonly code = 'GDN_BRAIN_NOT_GONE';
  constructor(id: string, roots: string) {
    super(BrainNotGoneError.code, `brain ${id} still has its folder (${roots}): the page removes only brains whose folders are gone; \`gardener brains --remove ${id}\` removes it anyway`, { exitCode: 2 });
    this.name = 'BrainNotGoneError';
  }
}

/** The HTTP token file exists but cannot be used. */
export class TokenUnreadableError extends GardenerError {
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(
      'GDN_TOKEN_UNREADABLE',
      `the token file ${file} cannot be used (${reason}): fix it (chmod 600 "${file}") or remove it so the owner makes a new one`,
      { ...options, exitCode: 2 },
    );
    this.name = 'TokenUnreadableError';
  }
}

/** The service manager (systemctl, launchctl) refused or is missing. */
export class ServiceError extends GardenerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('GDN_SERVICE_FAILED', message, options);
    this.name = 'ServiceError';
  }
}

/** A skeleton write keyed on a `store_version` that is no longer current (optimistic concurrency). */
export class SkeletonConflictError extends GardenerError {
  readonly current: number;
  constructor(given: number, current: number) {
    super(
      'GDN_SKELETON_CONFLICT',
      `store_version ${given} is stale: the skeleton is at store_version ${current} now. Read it again (the \`skeleton\` tool) and redo the change on that version`,
    );
    this.name = 'SkeletonConflictError';
    this.current = current;
  }
}

/** A skeleton edit or ratify with no candidate to work on. */
export class NoCandidateError extends GardenerError {
  constructor(what: string, ratified: boolean) {
    super(
      'GDN_NO_CANDIDATE',
      ratified
        ? `${what} works on a candidate, and this brain has only a ratified skeleton (it changes only through a candidate): call skeleton_candidate {from: "ratified"} to start one from it`
        : `${what} needs a candidate skeleton and there is none: call skeleton_candidate first`,
      { exitCode: 2 },
    );
    this.name = 'NoCandidateError';
  }
}

/** A command that needs a ratified skeleton on a brain that has none. */
export class NoSkeletonError extends GardenerError {
  constructor(brainId: string) {
    super(
      'GDN_NO_SKELETON',
      `brain ${brainId} has no ratified skeleton: propose one (\`gardener skeleton candidate\` or the skeleton_candidate tool), edit it, then ratify it with skeleton_ratify`,
      { exitCode: 2 },
    );
    this.name = 'NoSkeletonError';
  }
}

/**
 * The brain's file exists but this process may not read or write it (EACCES/EPERM, or SQLite
 * could not open an unreadable file). The store is fine: fix the permissions, never rebuild.
 */
export class StorePermissionError extends GardenerError {
  readonly file: string;
  readonly errno: string;
  constructor(file: string, errno: string, detail: string, options?: { cause?: unknown }) {
    super(
      'GDN_STORE_PERMISSION',
      `${file} cannot be read or written: permission denied (${errno}: ${detail}). The store itself is not damaged: ` +
        `give the user running Gardener read and write access to the file and its folder.`,
      { ...options, exitCode: 2 },
    );
    this.name = 'StorePermissionError';
    this.file = file;
    this.errno = errno;
  }
}

/** Another connection held the brain's lock past the busy timeout (SQLITE_BUSY/LOCKED). */
export class StoreLockedError extends GardenerError {
  readonly file: string;
  readonly errno: string;
  constructor(file: string, errno: string, detail: string, options?: { cause?: unknown }) {
    super(
      'GDN_STORE_LOCKED',
      `${file} is locked by another process (${errno}: ${detail}). The store is not damaged: retry when the other process is done.`,
      options,
    );
    this.name = 'StoreLockedError';
    this.file = file;
    this.errno = errno;
  }
}

/** The disk failed the brain's file: an I/O error or no space left (SQLITE_IOERR/FULL, ENOSPC). */
export class StoreIoError extends GardenerError {
  readonly file: string;
  readonly errno: string;
  constructor(file: string, errno: string, detail: string, options?: { cause?: unknown }) {
    super(
      'GDN_STORE_IO',
      `${file} could not be read or written (${errno}: ${detail}). The store was left as it was: ` +
        `check the disk (free space, mount, hardware) and retry.`,
      options,
    );
    this.name = 'StoreIoError';
    this.file = file;
    this.errno = errno;
  }
}

/** A native module was built for another Node ABI (Node changed under it since install). */
export class NativeModuleAbiError extends GardenerError {
  readonly module: string;
  constructor(module: string, builtFor: string, running: string, options?: { cause?: unknown }) {
    super(
      'GDN_NATIVE_MODULE_ABI',
      `the native module ${module} was built for another Node.js (NODE_MODULE_VERSION ${builtFor}; ` +
        `this Node.js ${process.version} needs ${running}). Your stores are fine: run \`npm rebuild ${module}\` ` +
        `with this Node, or use Node >= 22.13, whose built-in node:sqlite needs no native module.`,
      options,
    );
    this.name = 'NativeModuleAbiError';
    this.module = module;
  }
}

/** No SQLite driver on this runtime: Node without node:sqlite and better-sqlite3 not installed. */
export class SqliteDriverMissingError extends GardenerError {
  constructor(options?: { cause?: unknown }) {
    super(
      'GDN_SQLITE_DRIVER_MISSING',
      `no SQLite driver: Node.js ${process.version} has no node:sqlite and the module better-sqlite3 is not installed ` +
        `(its native build failed or was skipped). Either install a compiler toolchain (python3, make, a C++ compiler) ` +
        `and run \`npm install\` again (better-sqlite3 is an optional dependency), or use Node >= 22.13, which has SQLite built in.`,
      options,
    );
    this.name = 'SqliteDriverMissingError';
  }
}

/** The SQLite behind the driver lacks FTS5 or contentless_delete (SQLite >= 3.43.0). */
export class SqliteUnsupportedError extends GardenerError {
  readonly driver: string;
  readonly found: string;
  constructor(driver: string, found: string, needed: string, detail: string, options?: { cause?: unknown }) {
    super(
      'GDN_SQLITE_UNSUPPORTED',
      `the SQLite of ${driver} is ${found}, Gardener needs ${needed} (${detail}). No store was opened or changed: ` +
        `use a Node.js or Bun whose SQLite is newer.`,
      options,
    );
    this.name = 'SqliteUnsupportedError';
    this.driver = driver;
    this.found = found;
  }
}

/** An ingest root's `.gardenerignore` exists but cannot be read: detection stops rather than index what it keeps out. */
export class GardenerIgnoreUnreadableError extends GardenerError {
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(
      'GDN_IGNORE_UNREADABLE',
      `the ignore file ${file} cannot be read (${reason}), so nothing under its root is mapped until it can: ` +
        `fix its permissions or size, or remove it`,
      { ...options, exitCode: 2 },
    );
    this.name = 'GardenerIgnoreUnreadableError';
  }
}

/**
 * Something sits on this home's owner socket but is not a verified owner (the socket's folder
 * is not this user's private folder, or the peer did not prove it reads the home's token):
 * `gardener serve --status/--stop` tell it nothing and report this.
 */
export class OwnerUnverifiedError extends GardenerError {
  constructor(home: string, why: string) {
    super('GDN_OWNER_UNVERIFIED', `no verified owner for ${home}: ${why}. Nothing was sent to it; see docs/owner.md (threat model)`);
    this.name = 'OwnerUnverifiedError';
  }
}

/**
 * A second `gardener serve` found this home's owner lock held by a live process that does not
 * answer on its socket (stopped, in a debugger, stalled). It left owner.json and the socket alone.
 */
export class OwnerUnresponsiveError extends GardenerError {
  constructor(pid: number | null, home: string, why: string) {
    super(
      'GDN_OWNER_UNRESPONSIVE',
      `an owner (pid ${pid ?? 'unknown'}) holds this home (${home}) but does not answer (${why}): ` +
        `nothing was taken over. Wait for it, or stop it (kill ${pid ?? '<pid>'}) and start again`,
    );
    this.name = 'OwnerUnresponsiveError';
  }
}

/**
 * `gardener mcp` found this home's owner lock held by a live process that did not answer on its
 * socket within the proxy's wait (PROXY_OWNER_WAIT_MS): it neither proxied nor served
 * in-process beside a live owner (src/owner/dial-live-owner.ts).
 */
export class OwnerNotAnsweringError extends GardenerError {
  static readonly code = 'GDN_OWNER_NOT_ANSWERING';
  constructor(pid: number | null, home: string, waitedMs: number, why: string) {
    super(
      OwnerNotAnsweringError.code,
      `an owner (pid ${pid ?? 'unknown'}) holds this home (${home}) but did not answer within ${waitedMs} ms (${why}); ` +
        `this session was not served in-process beside it. Reconnect when it answers, raise GARDENER_PROXY_OWNER_WAIT_MS, ` +
        `or stop it (kill ${pid ?? '<pid>'})`,
    );
    this.name = 'OwnerNotAnsweringError';
  }
}

/** A host's config file that Gardener will not edit (not plain JSON or TOML, unreadable). */
export class HostConfigError extends GardenerError {
  readonly file: string;
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(
      'GDN_HOST_CONFIG_UNUSABLE',
      `${file} cannot be edited by Gardener (${reason}). It was left untouched: add the entry by hand (\`gardener hosts print <host>\` shows it)`,
      { ...options, exitCode: 2 },
    );
    this.name = 'HostConfigError';
    this.file = file;
  }
}

/** A host's own CLI (claude, codex, gemini) is not on PATH, or it failed. */
export class HostCliError extends GardenerError {
  readonly cli: string;
  constructor(cli: string, message: string, options?: { cause?: unknown; missing?: boolean }) {
    super(options?.missing ? 'GDN_HOST_CLI_MISSING' : 'GDN_HOST_CLI_FAILED', message, { ...options, exitCode: options?.missing ? 2 : 1 });
    this.name = 'HostCliError';
    this.cli = cli;
  }
}

/** (HTTP 400) A request body nests JSON deeper than the bound; it was refused before parsing. */
export class JsonTooDeepError extends GardenerError {
  static readonly code = 'GDN_JSON_TOO_DEEP';
  constructor(maxDepth: number) {
    super(
      JsonTooDeepError.code,
      `the request body nests JSON deeper than ${maxDepth} levels and was refused before parsing: no tool argument needs more than a few; send flatter JSON`,
      { exitCode: 2 },
    );
    this.name = 'JsonTooDeepError';
  }
}

/** (HTTP 503) The owner holds as many HTTP sessions (MCP and REST together) as it keeps. */
export class TooManySessionsError extends GardenerError {
  static readonly code = 'GDN_TOO_MANY_SESSIONS';
  constructor(max: number, unusedMs: number, idleMs: number) {
    super(
      TooManySessionsError.code,
      `the owner already keeps ${max} HTTP sessions (MCP and REST together), its bound: end one (an MCP client's DELETE /mcp) ` +
        `or retry later (a session with no call after initialize ends after ${Math.round(unusedMs / 1000)} s, an idle one after ${Math.round(idleMs / 60_000)} min)`,
    );
    this.name = 'TooManySessionsError';
  }
}

/** (HTTP 400) A request body holds more JSON values than the bound; it was refused before parsing. */
export class JsonTooManyValuesError extends GardenerError {
  static readonly code = 'GDN_JSON_TOO_MANY_VALUES';
  constructor(maxValues: number) {
    super(
      JsonTooManyValuesError.code,
      `the request body holds more than ${maxValues} JSON values (array items, object members) and was refused before parsing: send fewer, or split the call`,
      { exitCode: 2 },
    );
    this.name = 'JsonTooManyValuesError';
  }
}

/*
 * Codes the seams and transports answer with, as data (an `isError` tool result, a tick outcome,
 * an HTTP error body) more often than thrown: each is read through its class's `code`.
 */

/** A tick failed for a reason without a code of its own (recorded as a `tick_failed` alert, never thrown at a caller). */
export class TickFailedError extends GardenerError {
  static readonly code = 'GDN_TICK_FAILED';
}

/** (MCP, REST 404) A tool this session does not offer, or not yet (a late tool before its folder has a brain). */
export class UnknownToolError extends GardenerError {
  static readonly code = 'GDN_UNKNOWN_TOOL';
  constructor(tool: string, { late = false }: { late?: boolean } = {}) {
    const message = late
      ? `${tool} is not available here: it is offered only for a folder with a brain (call ingest first)`
      : `unknown tool "${tool}": call tools/list for the tools this session offers`;
    super(UnknownToolError.code, message, { exitCode: 2 });
    this.name = 'UnknownToolError';
  }
}

/** (HTTP 401) No bearer token, or a wrong one. */
export class UnauthorizedError extends GardenerError {
  static readonly code = 'GDN_UNAUTHORIZED';
}

/** (MCP, REST 500) A tool's handler failed for a reason without a code of its own. */
export class ToolFailedError extends GardenerError {
  static readonly code = 'GDN_TOOL_FAILED';
  constructor(tool: string, cause: unknown) {
    super(ToolFailedError.code, `${tool} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ToolFailedError';
  }
}

/** (HTTP 403) A Host that is not a loopback name, or a foreign Origin. */
export class ForbiddenError extends GardenerError {
  static readonly code = 'GDN_FORBIDDEN';
}

/** (HTTP 413) A request body over the owner's bound. */
export class RequestTooLargeError extends GardenerError {
  static readonly code = 'GDN_BODY_TOO_LARGE';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(RequestTooLargeError.code, `the request body is over ${maxBytes} bytes`);
    this.name = 'RequestTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/** (HTTP 404) A host looked for OAuth metadata: the owner takes a bearer token only. */
export class NoOAuthError extends GardenerError {
  static readonly code = 'GDN_NO_OAUTH';
}

/** (HTTP 404) No such route. */
export class RouteNotFoundError extends GardenerError {
  static readonly code = 'GDN_NOT_FOUND';
  constructor(method: string | undefined, path: string) {
    super(RouteNotFoundError.code, `no route ${method ?? '?'} ${path}: see docs/owner.md for the routes`);
    this.name = 'RouteNotFoundError';
  }
}

/** (HTTP 504) A REST tool call outlived the call timeout; the work goes on in the background. */
export class RestTimeoutError extends GardenerError {
  static readonly code = 'GDN_REST_TIMEOUT';
  constructor(tool: string, timeoutMs: number) {
    super(
      RestTimeoutError.code,
      `${tool} did not finish within ${timeoutMs} ms; the work goes on in the background: call again (or read status) later`,
    );
    this.name = 'RestTimeoutError';
  }
}

/** (HTTP 500) A request failed inside the owner's HTTP listener, outside any tool call. */
export class HttpRequestFailedError extends GardenerError {
  static readonly code = 'GDN_HTTP_FAILED';
  constructor(cause: Error) {
    super(HttpRequestFailedError.code, cause.message, { cause });
    this.name = 'HttpRequestFailedError';
  }
}

/** A note holds a secret (a token format, key material) and may not be written into a team note file. */
export class NoteSecretError extends GardenerError {
  static readonly code = 'GDN_NOTE_SECRET';
  constructor(kind: string, where: string) {
    super(
      NoteSecretError.code,
      `the note holds what looks like a secret (${kind}) in ${where}: a team note is a file in the repository, so it was not written; remove the secret (or keep the note private)`,
      { exitCode: 2 },
    );
    this.name = 'NoteSecretError';
  }
}

/** (HTTP 401) A page request without a live page session cookie (the page's own login). */
export class PageLoginRequiredError extends GardenerError {
  static readonly code = 'GDN_PAGE_LOGIN_REQUIRED';
  constructor() {
    super(PageLoginRequiredError.code, 'no page session: run `gardener open` and open the URL it prints (a restarted owner forgets its page sessions)');
    this.name = 'PageLoginRequiredError';
  }
}

/** (HTTP 403) A login code that is unknown, already spent or past its minute. */
export class PageLoginCodeInvalidError extends GardenerError {
  static readonly code = 'GDN_PAGE_LOGIN_CODE_INVALID';
  constructor() {
    super(PageLoginCodeInvalidError.code, 'this login link is spent or expired (each works once, within a minute): run `gardener open` again');
    this.name = 'PageLoginCodeInvalidError';
  }
}

/** (HTTP 403) A page mutation without a same-origin header (Origin or Sec-Fetch-Site): no CSRF. */
export class PageCrossSiteError extends GardenerError {
  static readonly code = 'GDN_PAGE_CROSS_SITE';
  constructor() {
    super(PageCrossSiteError.code, 'a page call must come from the page itself: the Origin header (or Sec-Fetch-Site: same-origin) must name this owner');
    this.name = 'PageCrossSiteError';
  }
}

/** (HTTP 503) The page's files are not in dist/page (the build did not bundle them). */
export class PageAssetsMissingError extends GardenerError {
  static readonly code = 'GDN_PAGE_ASSETS_MISSING';
  constructor(dir: string) {
    super(PageAssetsMissingError.code, `the page's files are missing from ${dir}: run \`npm run build\` in Gardener's folder`);
    this.name = 'PageAssetsMissingError';
  }
}

/** (MCP: JSON-RPC -32602) `prompts/get` named a prompt this server does not offer. */
export class UnknownPromptError extends GardenerError {
  static readonly code = 'GDN_UNKNOWN_PROMPT';
  constructor(name: string, known: readonly string[]) {
    super(UnknownPromptError.code, `unknown prompt "${name}": this server offers ${known.join(', ')} (prompts/list)`, { exitCode: 2 });
    this.name = 'UnknownPromptError';
  }
}

/** (MCP: JSON-RPC -32002) `resources/read` or `resources/subscribe` named a URI this server does not serve. */
export class ResourceNotFoundError extends GardenerError {
  static readonly code = 'GDN_RESOURCE_NOT_FOUND';
  readonly uri: string;
  constructor(uri: string, why: string) {
    super(ResourceNotFoundError.code, `no resource ${uri}: ${why}`, { exitCode: 2 });
    this.name = 'ResourceNotFoundError';
    this.uri = uri;
  }
}
