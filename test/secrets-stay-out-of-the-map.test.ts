/**
 * The map keeps secrets out (docs/secrets.md): the eight secrets of issue 14 in a real git
 * repository, ingested and asked for through a real MCP client over stdio. None is findable
 * by `seek` nor packed by `delegate`; an ordinary word beside each one is.
 *
 * The secrets are assembled at run time, so no literal token sits in this repository.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { connectGardener, type GardenerClient } from './helpers/mcp-client.js';

const hex64 = (seed: string) => (seed.repeat(64).slice(0, 64));
const GARDENER_TOKEN = hex64('7f3a9c2e');
const GITHUB_TOKEN = 'ghp' + '_' + 'R8xKq2Lm9Vt4Wz6Yb1Nc3Pd5Fg7Hj0Ks2Qa4';
const AWS_KEY_ID = 'AKIA' + 'Q3ZT7WXN5RBV2KDM';
const NPM_TOKEN = 'npm' + '_' + 'Zp4Lx8Qm2Rv6Tn0Wy3Kb7Jc1Hd5Gf9Se2Ua6';
const PEM_BODY = 'MIIEpAIBAAKCAQEAzq7Wv2Lr9921xqTb';

interface Secret {
  what: string;
  /** A word of the secret: must not be found. */
  secret: string;
  /** A word written beside it (same line, or a file beside a secret-bearing file): must be found. */
  beside: string;
}

// The secrets share no word with a path: a path is mapped, and delegate may rank by it.
const SECRETS: Secret[] = [
  { what: '.env', secret: 'envsecretvalue7731', beside: 'marigoldenv' },
  { what: '.env.local', secret: 'qzxvwrkt5521', beside: 'marigoldlocal' },
  { what: 'a PEM private key', secret: PEM_BODY, beside: 'marigoldpem' },
  { what: '.cursor/mcp.json with a bearer token', secret: hex64('c0ffee42'), beside: 'marigoldcursor' },
  { what: 'a ghp_ token in source', secret: GITHUB_TOKEN, beside: 'cobaltheron' },
  { what: 'an AKIA key in source', secret: AWS_KEY_ID, beside: 'amberfalcon' },
  { what: '.npmrc with an auth token', secret: NPM_TOKEN, beside: 'marigoldnpm' },
  { what: "Gardener's own token", secret: GARDENER_TOKEN, beside: 'violetotter' },
];

function files(): Record<string, string> {
  return {
    'README.md': '# demo\n\nA small service. Words beside the credential files: marigoldenv marigoldlocal marigoldpem marigoldnpm.\n',
    '.env': 'DATABASE_URL=postgres://app@localhost/app\nSTRIPE_SECRET=envsecretvalue7731\n',
    '.env.local': 'SESSION_KEY=qzxvwrkt5521\n',
    '.env.example': 'SESSION_KEY=\nDATABASE_URL=\n# templatewordexample\n',
    'keys/deploy.pem': `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n${'Q'.repeat(64)}\n-----END RSA PRIVATE KEY-----\n`,
    'keys/README.md': 'The deploy key lives beside this file.\n',
    '.cursor/mcp.json': JSON.stringify({ mcpServers: { gardener: { url: 'http://127.0.0.1:7411/mcp', headers: { Authorization: `Bearer ${hex64('c0ffee42')}` } } } }, null, 2) + '\n',
    '.cursor/rules.md': 'Editor rules: marigoldcursor.\n',
    'src/github.ts': `export const GITHUB_AUTH = "${GITHUB_TOKEN}"; // cobaltheron\nexport function listIssues() { return GITHUB_AUTH; }\n`,
    'src/aws_client.py': `AWS_ACCESS_KEY_ID = "${AWS_KEY_ID}"  # amberfalcon\n\ndef connect():\n    return AWS_ACCESS_KEY_ID\n`,
    '.npmrc': `//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n`,
    'scripts/call-gardener.sh': `#!/bin/sh\n# violetotter\ncurl -H "Authorization: Bearer ${GARDENER_TOKEN}" http://127.0.0.1:7411/api/tools/north\n`,
    'deploy/compose.yml': `services:\n  agent:\n    environment:\n      GARDENER_TOKEN: ${GARDENER_TOKEN} # violetotter\n`,
    token: `${GARDENER_TOKEN}\n`,
  };
}

async function withIngested(run: (c: GardenerClient) => Promise<void>): Promise<void> {
  const repo = await makeGitRepo(files());
  const home = await makeTempDir('gardener-home-');
  const c = await connectGardener(repo.dir, { ...process.env, GARDENER_HOME: home.dir, GARDENER_NO_OWNER: '1' });
  try {
    const ingested = await c.call('ingest');
    assert.equal(ingested.isError, false, JSON.stringify(ingested.value));
    await run(c);
  } finally {
    await c.close();
    await repo.cleanup();
    await home.cleanup();
  }
}

const paths = (hits: { path: string }[]) => hits.map((h) => h.path);

test('no secret of the eight is findable by seek or packed by delegate; the word beside each one is', async () => {
  await withIngested(async (c) => {
    // Every leak and every miss is collected, so a failure names all of them at once.
    const wrong: string[] = [];
    for (const s of SECRETS) {
      const hidden = await c.call('seek', { query: s.secret, scope: 'code' });
      assert.equal(hidden.isError, false, JSON.stringify(hidden.value));
      if (hidden.value.code.length > 0) wrong.push(`${s.what}: seek finds the secret in ${paths(hidden.value.code)}`);
      const packed = await c.call('delegate', { task: `${s.secret} ${s.secret}` });
      assert.equal(packed.isError, false, JSON.stringify(packed.value));
      if (packed.value.files.length > 0) wrong.push(`${s.what}: delegate packs ${paths(packed.value.files)} for the secret`);

      const found = await c.call('seek', { query: s.beside, scope: 'code' });
      if (found.value.code.length === 0) wrong.push(`${s.what}: seek does not find the word beside it (${s.beside})`);
      const pack = await c.call('delegate', { task: s.beside });
      if (pack.value.files.length === 0) wrong.push(`${s.what}: delegate packs nothing for the word beside it (${s.beside})`);
    }
    assert.deepEqual(wrong, []);
  });
});

test('secret-bearing files are mapped as files, by path, with no text; templates are indexed', async () => {
  await withIngested(async (c) => {
    const north = await c.call('north');
    assert.equal(north.isError, false);
    // Every file of the repository is in the map, secret-bearing ones included.
    assert.equal(north.value.files, Object.keys(files()).length);
    const byPath = await c.call('seek', { query: 'deploy pem', scope: 'code' });
    assert.ok(paths(byPath.value.code).includes('keys/deploy.pem'), JSON.stringify(byPath.value.code));
    const template = await c.call('seek', { query: 'templatewordexample', scope: 'code' });
    assert.deepEqual(paths(template.value.code), ['.env.example']);
  });
});

test('the line of a hit never tells where a secret word sits in a file', async () => {
  await withIngested(async (c) => {
    // `.env` is found by its path; the secret is on its line 2, the token in compose.yml on line 4.
    const env = await c.call('seek', { query: 'env envsecretvalue7731', scope: 'code' });
    assert.deepEqual(env.value.code.map((h: { path: string; line: number }) => [h.path, h.line]).filter(([p]: [string]) => p === '.env'), [['.env', 1]]);
    const compose = await c.call('seek', { query: `compose ${GARDENER_TOKEN}`, scope: 'code' });
    const hit = compose.value.code.find((h: { path: string }) => h.path === 'deploy/compose.yml');
    assert.ok(hit, JSON.stringify(compose.value.code));
    assert.equal(hit.line, 1);
    const packed = await c.call('delegate', { task: `compose ${GARDENER_TOKEN}` });
    const file = packed.value.files.find((f: { path: string }) => f.path === 'deploy/compose.yml');
    if (file) assert.deepEqual(file.lines, [1]);
  });
});
