/**
 * Well-known token formats, redacted from every indexed text (redact-tokens.ts).
 *
 * A small set of our own, each shaped after the issuer's documented format, rather than a
 * registry rule set: secretlint (the well-kept one) ships its rules as code run through an
 * async linter, needs Node 22 since 12.1, has no rule for Stripe, Google API keys, JWTs,
 * `Bearer` headers or Gardener's token, and skips private keys under 100 base64 characters
 * (docs/dependencies.md has the measurements). A format that is only a guess (a 40-character
 * AWS secret, a 64-hex token) is matched only beside a key name that says what it is, so
 * checksums and commit ids stay searchable.
 *
 * Every pattern names its anchors: literal substrings one of which each of its matches
 * contains, or, for a format with no fixed prefix, the value's shape as a run of characters (64
 * hex digits). A text holding none of them skips every regex (the cheap pre-check,
 * anchor-probe.ts), so a pattern added here must list an anchor present in all of its matches. *
 * A file whose bytes did not change is not read again, so a brain keeps what an older list let
 * in: a change here that keeps more out comes with a schema migration that re-queues every
 * file (as migration 4 in src/store/schema.ts does).
 */

/** A value's shape for a format with no fixed prefix: `length` characters of `chars` (ASCII) in a row. */
export interface RunAnchor {
  chars: string;
  length: number;
}

export interface TokenPattern {
  /** Stable name, for docs and tests. */
  id: string;
  /** What it is and where the format is documented. */
  reason: string;
  /** Case-sensitive literals, or shapes (runs of characters); every match contains at least one. */
  anchors: readonly (string | RunAnchor)[];
  /** Global. With a capture group, only group 1 (the secret) is redacted; else the whole match. */
  regex: RegExp;
  /** A last check on the secret part, for formats a regex alone would over-match. */
  accept?: (secret: string) => boolean;
}

/** Random tokens mix letters and digits; names and references (`process.env.X`) do not. */
const looksRandom = (s: string): boolean => /[0-9]/.test(s) && /[A-Za-z]/.test(s);

export const TOKEN_PATTERNS: readonly TokenPattern[] = [
  {
    id: 'github-token',
    reason: 'GitHub classic tokens: ghp_ (personal), gho_ (OAuth), ghu_/ghs_ (app), ghr_ (refresh), each 36 base62 characters after the prefix',
    anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    regex: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
  },
  {
    id: 'github-fine-grained-token',
    reason: 'GitHub fine-grained personal access tokens: github_pat_ and 82 characters',
    anchors: ['github_pat_'],
    regex: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{82}(?![A-Za-z0-9_])/g,
  },
  {
    id: 'aws-access-key-id',
    reason: 'AWS access key ids: AKIA (long-term), ASIA (temporary), ABIA/ACCA, then 16 upper-case letters and digits',
    anchors: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    regex: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/g,
  },
  {
    id: 'aws-secret-access-key',
    reason: 'AWS secret access keys (40 base64 characters), recognised beside a key name holding "secret" (aws_secret_access_key, SecretAccessKey)',
    anchors: ['secret', 'Secret', 'SECRET'],
    regex: /(?:secret|Secret|SECRET)[A-Za-z0-9_.-]{0,30}["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    accept: looksRandom,
  },
  {
    id: 'slack-token',
    reason: 'Slack tokens: xoxb- (bot), xoxp- (user), xoxa-/xoxr-/xoxs-/xoxe-/xoxo-, xapp- (app-level)',
    anchors: ['xox', 'xapp-'],
    regex: /(?<![A-Za-z0-9])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,250}/g,
  },
  {
    id: 'slack-webhook',
    reason: 'Slack incoming-webhook URLs: the path after hooks.slack.com/services/ is the secret',
    anchors: ['hooks.slack.com/'],
    regex: /hooks\.slack\.com\/(?:services|workflows|triggers)\/([A-Za-z0-9_/+-]{20,300})/g,
  },
  {
    id: 'stripe-key',
    reason: 'Stripe secret and restricted keys (sk_live_, sk_test_, rk_live_, rk_test_) and webhook signing secrets (whsec_)',
    anchors: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
    regex: /(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9+/=]{24,})(?![A-Za-z0-9])/g,
  },
  {
    id: 'google-api-key',
    reason: 'Google API keys: AIza and 35 characters',
    anchors: ['AIza'],
    regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
  },
  {
    id: 'openai-anthropic-key',
    reason: 'OpenAI (sk-, sk-proj-, sk-svcacct-) and Anthropic (sk-ant-) API keys',
    anchors: ['sk-'],
    regex: /(?<![A-Za-z0-9_-])sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,250}/g,
    accept: looksRandom,
  },
  {
    id: 'npm-token',
    reason: 'npm access tokens: npm_ and 36 characters',
    anchors: ['npm_'],
    regex: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
  },
  {
    id: 'registry-auth-setting',
    reason: 'registry auth settings in any file (npm _authToken/_auth/_password, Yarn npmAuthToken/npmAuthIdent)',
    anchors: ['_auth', '_password', 'npmAuth'],
    regex: /(?:_authToken|_auth|_password|npmAuthToken|npmAuthIdent)["']?\s*[=:]\s*["']?([^\s"'$][^\s"']{7,})/g,
  },
  {
    id: 'private-key-block',
    reason: 'PEM private-key blocks of any kind (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP … PRIVATE KEY): the body (40+ base64 characters, header lines, escaped `\\n` as in JSON), up to its END line or wherever the base64 stops (a truncated key)',
    anchors: ['PRIVATE KEY'],
    // The body must look like one: code that merely names the header (a PEM parser) keeps its text.
    regex: /-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----((?:\r?\n|\\n|[ \t])(?:[A-Za-z][A-Za-z-]*:[^\n\\]*(?:\r?\n|\\n))*[A-Za-z0-9+/=\s\\]{40,})/g,
  },
  {
    id: 'jwt',
    reason: 'JSON Web Tokens: three base64url parts, the first two JSON objects (eyJ…)',
    anchors: ['eyJ'],
    regex: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    id: 'bearer-token',
    reason: 'a literal `Bearer <token>` of 20 characters or more (Authorization headers, host configs; Gardener\'s own token among them)',
    anchors: ['Bearer', 'bearer', 'BEARER'],
    regex: /(?<![A-Za-z0-9])(?:[Bb]earer|BEARER)\s+([A-Za-z0-9._~+/-]{20,}=*)/g,
  },
  {
    id: 'hex-token-setting',
    reason: "a 64-hex token (Gardener's own format) as the value of a key named for a token, secret, auth or key",
    // Key names like "token" are in most source files; a 64-hex value in few.
    anchors: [{ chars: '0123456789abcdefABCDEF', length: 64 }],
    regex: /(?:[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Aa]uth|AUTH|[Kk]ey|KEY)[A-Za-z0-9_.-]{0,30}["']?\s*[:=]\s*["']?([0-9a-fA-F]{64})(?![0-9A-Za-z])/g,
  },
  {
    id: 'url-password',
    reason: 'the password of a URL with credentials (https://user:password@host, postgres://, mongodb+srv://, redis://…)',
    anchors: ['://'],
    regex: /:\/\/[^\s:@/"'<>]{1,256}:([^\s@/"'<>]{1,256})@/g,
    // `${password}`, `$PASSWORD`: a reference, not the value.
    accept: (secret) => !secret.startsWith('$'),
  },
  {
    id: 'secret-assignment',
    reason: 'a token-like value (16+ characters mixing letters and digits) assigned to an upper-case name holding SECRET, TOKEN, PASSWORD, API_KEY, ACCESS_KEY or PRIVATE_KEY (env-style lines in CI files, compose files, scripts)',
    anchors: ['SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'API_KEY', 'APIKEY', 'ACCESS_KEY', 'PRIVATE_KEY'],
    regex: /(?:SECRET|TOKEN|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*["']?\s*[:=]\s*["']?([A-Za-z0-9_\-+/=.]{16,})/g,
    accept: looksRandom,
  },
];
