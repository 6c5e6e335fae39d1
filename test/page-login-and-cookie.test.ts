/**
 * The page's security laws, against a real owner on 127.0.0.1 (port 0): the one-time code is
 * good once and for a minute, the redirect leaves a clean URL, the cookie is HttpOnly and
 * SameSite=Strict, every page API and the event stream need it, every page POST needs a
 * same-origin header, and the page goes out under a CSP with no inline script.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { homeToken, ownerEnv, runCli, startServe } from './helpers/owner.js';
import { LoginCodes, LOGIN_CODE_TTL_MS } from '../src/page/login-codes.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string; firstChunk?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        // An event stream never ends: its first event is the answer.
        if (opts.firstChunk && body.includes('\n\n')) {
          resolve({ status: res.statusCode!, headers: res.headers, body });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

async function withOwner(fn: (o: { url: string; token: string; home: string; folder: string }) => Promise<void>): Promise<void> {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  const owner = await startServe(home.dir);
  try {
    await fn({ url: owner.ready.url!, token: homeToken(home.dir), home: home.dir, folder: repo.dir });
  } finally {
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
}

async function loginCode(url: string, token: string): Promise<string> {
  const r = await http(`${url}/api/page/login`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  assert.equal(r.status, 200, r.body);
  return (JSON.parse(r.body) as { code: string }).code;
}

async function cookieOf(url: string, token: string): Promise<string> {
  const r = await http(`${url}/login?code=${await loginCode(url, token)}`);
  return String((r.headers['set-cookie'] as string[])[0]).split(';')[0]!;
}

test('a login code is traded once for an HttpOnly SameSite=Strict cookie and a redirect to a clean URL; a second use is refused', async () => {
  await withOwner(async ({ url, token }) => {
    const code = await loginCode(url, token);
    const first = await http(`${url}/login?code=${code}`);
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, '/', 'the code and the token never stay in the address bar');
    const cookie = String((first.headers['set-cookie'] as string[])[0]);
    assert.match(cookie, /^gardener_page=[0-9a-f]{64}; /);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.doesNotMatch(cookie, new RegExp(token), 'the cookie is not the bearer token');
    const again = await http(`${url}/login?code=${code}`);
    assert.equal(again.status, 403);
    assert.match(again.body, /GDN_PAGE_LOGIN_CODE_INVALID/);
    assert.equal(again.headers['set-cookie'], undefined);
  });
});

test('a login code is good for a minute only', () => {
  let now = 1_000_000;
  const codes = new LoginCodes({ now: () => now });
  const late = codes.issue().code;
  const inTime = codes.issue().code;
  assert.ok(codes.redeem(inTime), 'a fresh code logs in');
  now += LOGIN_CODE_TTL_MS;
  assert.equal(codes.redeem(late), null, 'a code past its minute does not');
  assert.equal(codes.redeem('0'.repeat(64)), null, 'nor does a made-up one');
});

test('the page API and the event stream need the page cookie: no cookie, a made-up one or the bearer token alone is refused', async () => {
  await withOwner(async ({ url, token }) => {
    for (const path of ['/page/api/brains', '/page/api/events']) {
      const none = await http(`${url}${path}`);
      assert.equal(none.status, 401, path);
      assert.match(none.body, /GDN_PAGE_LOGIN_REQUIRED/);
      const fake = await http(`${url}${path}`, { headers: { cookie: `gardener_page=${'a'.repeat(64)}` } });
      assert.equal(fake.status, 401, path);
      const bearer = await http(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(bearer.status, 401, `${path}: the page takes its cookie, not the token`);
    }
    const cookie = await cookieOf(url, token);
    const brains = await http(`${url}/page/api/brains`, { headers: { cookie } });
    assert.equal(brains.status, 200, brains.body);
    assert.ok(Array.isArray((JSON.parse(brains.body) as { brains: unknown[] }).brains));
    const events = await http(`${url}/page/api/events`, { headers: { cookie }, firstChunk: true });
    assert.equal(events.status, 200);
    assert.match(String(events.headers['content-type']), /text\/event-stream/);
    assert.match(events.body, /event: brains\ndata: \{"brains":\[/);
  });
});

test('a page POST needs the cookie and a same-origin header: no Origin, a foreign Origin or no cookie is refused', async () => {
  await withOwner(async ({ url, token, folder }) => {
    const cookie = await cookieOf(url, token);
    const path = `${url}/page/api/tools/alerts_list?folder=${encodeURIComponent(folder)}`;
    const json = { 'content-type': 'application/json' };
    const noOrigin = await http(path, { method: 'POST', headers: { ...json, cookie }, body: '{}' });
    assert.equal(noOrigin.status, 403);
    assert.match(noOrigin.body, /GDN_PAGE_CROSS_SITE/);
    const foreign = await http(path, { method: 'POST', headers: { ...json, cookie, origin: 'http://evil.example' }, body: '{}' });
    assert.equal(foreign.status, 403);
    const crossSite = await http(path, { method: 'POST', headers: { ...json, cookie, 'sec-fetch-site': 'cross-site' }, body: '{}' });
    assert.equal(crossSite.status, 403);
    const otherPort = await http(path, { method: 'POST', headers: { ...json, cookie, origin: 'http://127.0.0.1:1' }, body: '{}' });
    assert.equal(otherPort.status, 403, 'another loopback port is another origin');
    const noCookie = await http(path, { method: 'POST', headers: { ...json, origin: url }, body: '{}' });
    assert.equal(noCookie.status, 401);
    const same = await http(path, { method: 'POST', headers: { ...json, cookie, origin: url }, body: '{}' });
    // The seam's own answer: the folder has no brain yet (the REST rule), not a page refusal.
    assert.notEqual(same.status, 403, same.body);
    assert.notEqual(same.status, 401, same.body);
  });
});

test('the page goes out under a CSP with no inline script, and its HTML holds no inline script', async () => {
  await withOwner(async ({ url }) => {
    const page = await http(`${url}/`);
    assert.equal(page.status, 200, page.body);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    for (const tag of page.body.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
      assert.match(tag, /\ssrc="\/page\//, `a script of the page's own: ${tag}`);
      assert.match(tag, /><\/script>$/, 'with no inline body');
    }
    const js = await http(`${url}/page/app.js`);
    assert.equal(js.status, 200);
    assert.match(String(js.headers['content-type']), /javascript/);
  });
});

test('gardener open prints the login URL as its last line, and says how to start an owner when none runs', async () => {
  const lonely = await makeTempDir('gardener-home-');
  try {
    const none = await runCli(['open', '--no-browser'], ownerEnv(lonely.dir));
    assert.equal(none.code, 1);
    assert.match(none.stderr, /gardener serve/);
  } finally {
    await lonely.cleanup();
  }
  await withOwner(async ({ url, home }) => {
    const r = await runCli(['open', '--no-browser'], ownerEnv(home));
    assert.equal(r.code, 0, r.stderr);
    const last = r.stdout.trimEnd().split('\n').at(-1)!;
    assert.match(last, new RegExp(`^${url.replace(/[.]/g, '\\.')}/login\\?code=[0-9a-f]{64}$`));
    const login = await http(last);
    assert.equal(login.status, 303);
  });
});
