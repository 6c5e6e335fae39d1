/**
 * Token formats are redacted from indexed text (src/ingest/secrets/): each documented format is
 * replaced by the marker, with the text's line breaks and UTF-8 length kept; ordinary code, and
 * look-alikes that are not secrets (checksums, placeholders), come back untouched.
 * Samples are assembled at run time so no literal token sits in this repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexableText, isSecretFile, redactTokens, TOKEN_PATTERNS, REDACTION_MARKER } from '../src/ingest/secrets/index.js';

const r = (n: number, alphabet = 'aB3dE5gH7jK9mN2pQ4sT6vW8yZ') => Array.from({ length: n }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
const hex = (n: number) => Array.from({ length: n }, (_, i) => '0123456789abcdef'[(i * 5 + 3) % 16]).join('');

/** One sample per pattern: [pattern id, line holding it, the secret part]. */
const SAMPLES: [string, string, string][] = [
  ['github-token', `const t = "${'ghp' + '_' + r(36)}";`, 'ghp' + '_' + r(36)],
  ['github-fine-grained-token', `token: ${'github' + '_pat_' + r(82)}`, 'github' + '_pat_' + r(82)],
  ['aws-access-key-id', `key = "${'AKIA' + 'Q3ZT7WXN5RBV2KDM'}"`, 'AKIA' + 'Q3ZT7WXN5RBV2KDM'],
  ['aws-secret-access-key', `aws_secret_access_key = ${r(38) + '/+'}`, r(38) + '/+'],
  ['slack-token', `SLACK = '${'xoxb' + '-1234567890-' + r(24)}'`, 'xoxb' + '-1234567890-' + r(24)],
  ['slack-webhook', `url: https://hooks.slack.com/services/${'T0' + r(8)}/${'B0' + r(8)}/${r(24)}`, `${'T0' + r(8)}/${'B0' + r(8)}/${r(24)}`],
  ['stripe-key', `stripe(${'sk' + '_live_' + r(24)})`, 'sk' + '_live_' + r(24)],
  ['google-api-key', `maps?key=${'AIza' + r(35)}`, 'AIza' + r(35)],
  ['openai-anthropic-key', `client = Anthropic("${'sk-' + 'ant-' + r(40)}")`, 'sk-' + 'ant-' + r(40)],
  ['npm-token', `NPM=${'npm' + '_' + r(36)}`, 'npm' + '_' + r(36)],
  ['registry-auth-setting', `//npm.example.com/:_authToken=${r(20)}`, r(20)],
  ['jwt', `cookie: ${'eyJ' + r(20)}.${'eyJ' + r(30)}.${r(43)}`, `${'eyJ' + r(20)}.${'eyJ' + r(30)}.${r(43)}`],
  ['bearer-token', `-H "Authorization: Bearer ${hex(64)}"`, hex(64)],
  ['hex-token-setting', `"token": "${hex(64)}",`, hex(64)],
  ['url-password', `DATABASE_URL=postgres://app:${r(12)}@db.internal/app`, r(12)],
  ['secret-assignment', `export CI_DEPLOY_PASSWORD=${r(20)}`, r(20)],
];

const wordsOf = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);

test('every documented token format is redacted, keeping line breaks and UTF-8 length', () => {
  assert.deepEqual(new Set(SAMPLES.map((s) => s[0])), new Set(TOKEN_PATTERNS.map((p) => p.id).filter((id) => id !== 'private-key-block')));
  for (const [id, line, secret] of SAMPLES) {
    const text = `before ünïcode line\n${line} // kept word\nafter\n`;
    const out = redactTokens(text);
    assert.ok(!out.includes(secret), `${id}: the secret is gone from ${JSON.stringify(out)}`);
    for (const word of wordsOf(secret)) if (word.length >= 8) assert.ok(!wordsOf(out).includes(word), `${id}: no word of the secret (${word}) is left`);
    assert.ok(out.includes(REDACTION_MARKER), `${id}: the marker stands in its place`);
    assert.equal(Buffer.byteLength(out), Buffer.byteLength(text), `${id}: same UTF-8 length`);
    assert.equal(out.split('\n').length, text.split('\n').length, `${id}: same lines`);
    assert.ok(out.includes('kept word') && out.startsWith('before ünïcode line\n'), `${id}: the rest of the text is untouched`);
  }
});

test('a private-key block loses its body, line by line, even when its END line is missing', () => {
  const body = [r(64), r(64), r(20) + '=='];
  const block = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
  const text = `const key = \`\n${block}\`; // deployKey\n`;
  const out = redactTokens(text);
  for (const line of body) assert.ok(!out.includes(line));
  assert.equal(out.split('\n').length, text.split('\n').length);
  assert.equal(out.length, text.length);
  assert.ok(out.includes('-----END OPENSSH PRIVATE KEY-----') && out.includes('deployKey'));
  // A short PKCS#8 key (ed25519: 64 base64 characters) and a truncated one are redacted too.
  const short = `-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI${r(27)}\n-----END PRIVATE KEY-----\n`;
  assert.ok(!redactTokens(short).includes(r(27)));
  const truncated = `-----BEGIN RSA PRIVATE KEY-----\n${r(64)}\n${r(64)}`;
  assert.ok(!redactTokens(truncated).includes(r(64)));
  // An encrypted key's header lines, and a key inside JSON with escaped line breaks.
  const encrypted = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B\n\n${r(64)}\n-----END RSA PRIVATE KEY-----`;
  assert.ok(!redactTokens(encrypted).includes(r(64)));
  const json = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${r(64)}\\n${r(64)}\\n-----END PRIVATE KEY-----\\n", "client_email": "bot@x.iam"}`;
  assert.ok(!redactTokens(json).includes(r(64)) && redactTokens(json).includes('"client_email": "bot@x.iam"'));
  // Code that only names the header (a PEM parser) keeps its text.
  const parser = `if (pem.startsWith('-----BEGIN RSA PRIVATE KEY-----')) return parseRsa(pem); // ${r(64)}\n`;
  assert.equal(redactTokens(parser), parser);
});

test('ordinary code and look-alikes that are not secrets come back as the same string', () => {
  const code = [
    'export function tokenize(text: string): string[] { return text.split(/\\s+/); }',
    `checksum = "${hex(64)}"`,
    `commit ${hex(40)}`,
    'headers: { Authorization: `Bearer ${token}` } // Bearer <token>',
    'const GITHUB_TOKEN = process.env.GITHUB_TOKEN;',
    'const SECRET_KEY_BYTES = 32;',
    'see https://example.com/docs and mailto:someone@example.com',
    'const task = "desk-lamp-and-other-things-in-a-long-name";',
    'const url = `postgres://${user}:${password}@${host}/app`;',
  ].join('\n');
  assert.equal(redactTokens(code), code);
});

test('secret-bearing files keep no text; templates and ordinary files keep theirs', () => {
  for (const p of ['.env', '.env.local', 'app/.env.production', 'prod.env', '.envrc', 'keys/deploy.pem', 'tls/server.key', 'cert.p12', 'a.pfx',
    '.ssh/id_rsa', 'id_ed25519.pub', 'id_ecdsa', '.npmrc', '.pypirc', '.netrc', 'credentials.json', 'credentials-prod.json',
    'gcp/service-account-key.json', 'serviceAccount.json', '.cursor/mcp.json', '.mcp.json', '.vscode/mcp.json', '.gemini/settings.json',
    '.codex/config.toml', 'Library/Claude/claude_desktop_config.json', '.aws/credentials', '.docker/config.json', 'token', 'infra/terraform.tfstate']) {
    assert.equal(isSecretFile(p), true, `${p} is secret-bearing`);
    assert.equal(indexableText(p, Buffer.from('anything at all\n')), null, `${p} keeps no text`);
  }
  for (const p of ['.env.example', '.env.sample', 'config/.env.template', '.env.dist', 'src/env.ts', 'src/token.ts', 'keyboard.ts', 'monkey',
    'docs/settings.json', '.vscode/settings.json', 'src/credentials.ts', 'tokens/README.md']) {
    assert.equal(isSecretFile(p), false, `${p} is not secret-bearing`);
    const bytes = Buffer.from('plain words\n');
    assert.equal(indexableText(p, bytes)!.bytes, bytes, `${p}: unredacted text is the file's own bytes`);
  }
});
