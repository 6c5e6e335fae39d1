/**
 * The words every host adapter shares: where Gardener is configured (an entry), what an
 * install or uninstall does (steps), and what the adapter is given (the context).
 */

export type HostName = 'claude-code' | 'codex' | 'gemini' | 'cursor' | 'vscode' | 'claude-desktop' | 'windsurf';
/** `local` is Claude Code's private per-project entry; `user` and `project` as the hosts say. */
export type Scope = 'local' | 'user' | 'project';
export type Transport = 'stdio' | 'http';

/** The environment variable a host reads the HTTP bearer token from (a reference, never the token). */
export const TOKEN_ENV = 'GARDENER_TOKEN';
/** The name Gardener's entry has in every host's config. */
export const SERVER_NAME = 'gardener';

/** What a host must launch (stdio) or reach (HTTP) to talk to this Gardener. */
export interface HostContext {
  /** The project folder: the git work tree's top (as Claude Code keys it), else the folder. */
  project: string;
  /** The Gardener home this process resolved. */
  home: string;
  env: NodeJS.ProcessEnv;
  /** The user's home folder ($HOME). */
  userHome: string;
  /** The absolute runtime and CLI script of the running `gardener`. */
  command: string;
  script: string;
  /**
   * Variables the server needs from the host: GARDENER_HOME when the home is not the default
   * one, plus XDG_RUNTIME_DIR (where the owner's socket is) for hosts that pass a whitelist only.
   */
  serverEnv(passesWholeEnvironment: boolean): Record<string, string>;
  /** The owner's HTTP base URL (run/owner.json when one runs, else the default port). */
  httpBase: string;
  /** Whether an owner's owner.json names an HTTP URL now. */
  ownerRunning: boolean;
}

/** The normalized shape of one server entry, for comparing what is there with what we would write. */
export interface ServerSpec {
  transport: Transport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  /** Header values as written (references, never expanded). */
  headers?: Record<string, string>;
  /** Codex: the variable the bearer token is read from. */
  bearerTokenEnv?: string;
}

/** Gardener's entry as found in one scope of one host. */
export interface HostEntry {
  scope: Scope;
  transport: Transport;
  /** The file that holds it. */
  file: string;
  spec: ServerSpec;
  /** Why the host will not connect to it as it stands (pending approval, untrusted folder), if known. */
  blocked?: string;
}

/** One thing an install or uninstall does, in the order given. */
export type Step =
  | { kind: 'run'; argv: string[]; cwd: string }
  | { kind: 'json-set'; file: string; path: string[]; value: unknown }
  | { kind: 'json-remove'; file: string; path: string[] }
  /** Removes the file when it holds nothing but empty objects (what a host CLI leaves behind). */
  | { kind: 'json-drop-if-empty'; file: string }
  | { kind: 'guide-set'; file: string; block: string }
  | { kind: 'guide-remove'; file: string };

export interface HostAdapter {
  readonly name: HostName;
  readonly title: string;
  /** The host's own CLI, when it has one that manages MCP servers. */
  readonly cli?: string;
  readonly scopes: readonly Scope[];
  /** The host's private per-user entry: never one that waits for an approval. */
  readonly defaultScope: Scope;
  readonly http: boolean;
  /** The agent-instructions file this host reads (for --guide), if it has a project. */
  readonly guideFile?: string;
  /** Gardener's entries in every scope (reads files only; never runs the host). */
  find(ctx: HostContext): HostEntry[];
  /** The entry install would write. */
  spec(ctx: HostContext, scope: Scope, transport: Transport): ServerSpec;
  /** Steps that write `spec` in `scope` (the entry is known not to be there). */
  add(ctx: HostContext, scope: Scope, spec: ServerSpec): Step[];
  /** Steps that remove Gardener's entry from `scope`. */
  remove(ctx: HostContext, entry: HostEntry): Step[];
  /** The config a CLI host's own command leaves (what `print` shows for writing it by hand). */
  manual?(ctx: HostContext, spec: ServerSpec, scope: Scope): { file: string; text: string };
  /** What the user still has to do after an install (approve, trust, export the token). */
  after?(ctx: HostContext, scope: Scope, transport: Transport): string[];
}
