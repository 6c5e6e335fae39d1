/**
 * The page in a real Chromium (Debian's package, driven by playwright-core: no browser
 * download): the login URL leads to a clean URL, the brains view shows the brain, the rooms
 * picture is drawn, and a note holding markup is shown as text with no script run. Skips,
 * saying so, when chromium is not installed (.ci/run installs it with apt-get).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { makeGitRepo, makeTempDir } from './helpers/git-repo.js';
import { homeToken, ownerEnv, runCli, startServe } from './helpers/owner.js';

const CHROMIUM = process.env.GARDENER_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

test('the page in a real browser: clean URL after login, brains, rooms picture, markup from the repository shown as text', { skip: CHROMIUM ? false : 'chromium is not installed (apt-get install -y chromium)' }, async () => {
  const { chromium } = await import('playwright-core');
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b/b.ts': "import { a } from '../a.js';\nexport const b = a;\n", 'src/<img src=x onerror=alert(1)>.ts': 'export const x = 1;\n' });
  const env = ownerEnv(home.dir);
  assert.equal((await runCli(['init', repo.dir], env)).code, 0);
  assert.equal((await runCli(['skeleton', 'candidate', repo.dir], env)).code, 0);
  const owner = await startServe(home.dir);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const url = owner.ready.url!;
    const remember = await fetch(`${url}/api/tools/remember`, { method: 'POST', headers: { authorization: `Bearer ${homeToken(home.dir)}`, 'x-gardener-folder': repo.dir, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'beware <script>window.__pwned=1</script> here' }) });
    assert.equal(remember.status, 200, await remember.text());
    const open = await runCli(['open', repo.dir, '--no-browser'], env);
    const login = open.stdout.trimEnd().split('\n').at(-1)!;
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await page.goto(login);
    assert.equal(page.url(), `${url}/`, 'the code left the address bar');
    await page.waitForFunction(`[...document.querySelectorAll('[data-brain] h2')].some((h) => h.textContent === ${JSON.stringify(repo.dir)})`);
    await page.click('a[href="#rooms"]');
    await page.waitForSelector('svg.rooms .room');
    await page.screenshot({ path: `${home.dir}/rooms.png` });
    await page.click('a[href="#notes"]');
    const note = await page.waitForSelector('.note-text');
    assert.equal(await note.textContent(), 'beware <script>window.__pwned=1</script> here');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual(dialogs, []);
  } finally {
    await browser.close();
    await owner.stop();
    await repo.cleanup();
    await home.cleanup();
  }
});
