/**
 * Secret-bearing files: files that carry credentials by their nature. They are mapped as files
 * (path, size, hash, language) so an agent knows they exist, but their content never reaches
 * the full-text index, the definitions, the imports or an answer.
 *
 * The decision is made on the path alone (cheap, and the same whatever the content), with a
 * reason per entry; docs/secrets.md is the user-facing copy of this list. Names are compared
 * lower-cased: `.ENV` on a case-insensitive disk is the same file as `.env`.
 *
 * Templates are deliberately not on the list: `.env.example`, `.env.sample`, `.env.template`,
 * `.env.dist` and `.env.defaults` exist to be committed and read (they name the settings a
 * project needs, which is what an agent looks for), so they are indexed like any text, with the
 * token formats of token-patterns.ts redacted as everywhere else. *
 * A file whose bytes did not change is not read again, so a brain keeps what an older list let
 * in: a change here that keeps more out comes with a schema migration that re-queues every
 * file (as migration 4 in src/store/schema.ts does).
 */

interface SecretFileRule {
  /** True when the root-relative path (lower-cased) is this kind of file. */
  matches: (lowerPath: string, lowerName: string) => boolean;
  reason: string;
}

/** `.env` suffixes that mark a template, committed on purpose and free of real values. */
const ENV_TEMPLATE_SUFFIXES: readonly string[] = ['.example', '.sample', '.template', '.dist', '.defaults'];

const name = (...names: string[]) => (_p: string, n: string) => names.includes(n);
const ext = (...exts: string[]) => (_p: string, n: string) => exts.some((e) => n.endsWith(e) && n.length > e.length);
const prefix = (...prefixes: string[]) => (_p: string, n: string) => prefixes.some((x) => n.startsWith(x));
/** The path ends with this folder/name pair (`.cursor/mcp.json` at any depth). */
const tail = (...tails: string[]) => (p: string) => tails.some((t) => p === t || p.endsWith(`/${t}`));

/** The list, one entry per kind of file, each with why it is kept out. */
export const SECRET_FILE_RULES: readonly SecretFileRule[] = [
  {
    matches: (_p, n) => (n === '.env' || n.startsWith('.env.') || (n.endsWith('.env') && n.length > 4)) && !ENV_TEMPLATE_SUFFIXES.some((s) => n.endsWith(s)),
    reason: 'dotenv files (.env, .env.local, .env.production, prod.env) hold the real values of API keys, passwords and connection strings',
  },
  { matches: name('.envrc'), reason: "direnv's .envrc exports environment variables, usually the same secrets as a .env" },
  { matches: ext('.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.p8'), reason: 'private keys and key stores (PEM, PKCS#12, Java key stores, PuTTY keys, Apple .p8 keys)' },
  { matches: prefix('id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'), reason: 'SSH identity files (the .pub beside a key goes with it: harmless, but the name is the signal)' },
  { matches: name('.npmrc', '.yarnrc', '.yarnrc.yml'), reason: 'package-manager configs carry registry auth tokens (`_authToken`, `npmAuthToken`)' },
  { matches: name('.pypirc'), reason: "PyPI upload credentials" },
  { matches: name('.netrc', '_netrc'), reason: 'machine/login/password lines for curl, git and ftp' },
  { matches: name('.git-credentials'), reason: "git's credential store: URLs with the password inside" },
  { matches: tail('.docker/config.json', '.aws/credentials', '.aws/config', '.kube/config'), reason: 'Docker registry auths, AWS access keys, Kubernetes cluster credentials' },
  { matches: name('.dockercfg', 'kubeconfig', '.htpasswd', '.pgpass', '.my.cnf'), reason: 'Docker, Kubernetes, HTTP basic-auth, PostgreSQL and MySQL password files' },
  { matches: (_p, n) => n.endsWith('.json') && (n.startsWith('credentials') || n.startsWith('client_secret')), reason: 'OAuth client secrets and stored credentials (Google `credentials.json`, `client_secret_*.json`)' },
  { matches: (_p, n) => n.endsWith('.json') && /service[-_]?account/.test(n), reason: 'cloud service-account keys (a private key in JSON)' },
  { matches: name('secrets.json', 'secrets.yml', 'secrets.yaml', 'secrets.toml', '.secrets'), reason: 'files named for the secrets they hold' },
  { matches: ext('.tfstate', '.tfstate.backup'), reason: 'Terraform state stores every resource attribute in plain text, passwords included' },
  {
    matches: (p, n) => n === 'mcp.json' || n === '.mcp.json' || n === 'mcp_config.json' || n.endsWith('mcp_settings.json') || n === 'claude_desktop_config.json'
      || tail('.gemini/settings.json', '.codex/config.toml', '.claude/settings.local.json', '.continue/config.json', '.continue/config.yaml')(p),
    reason: "agent hosts' MCP configs (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, Claude Desktop, Gemini, Codex, Continue) hold the bearer tokens and env keys of the servers they start, Gardener's own included",
  },
  { matches: name('token'), reason: "Gardener's own token file (`<home>/token`), and the habit of keeping a token in a file by that name" },
];

/** Why this root-relative path is a secret-bearing file, or null when it is not one. */
export function secretFileReason(path: string): string | null {
  const lowerPath = path.toLowerCase();
  const slash = lowerPath.lastIndexOf('/');
  const lowerName = slash < 0 ? lowerPath : lowerPath.slice(slash + 1);
  for (const rule of SECRET_FILE_RULES) if (rule.matches(lowerPath, lowerName)) return rule.reason;
  return null;
}

/** True when this root-relative path's content must never be indexed. */
export function isSecretFile(path: string): boolean {
  return secretFileReason(path) !== null;
}
