/**
 * One client holding the token cannot make the owner keep sessions without bound. Against a
 * real `gardener serve`:
 *   - 1,000 spellings of one folder (`/repo/././.`, trailing and doubled slashes, symlinks to
 *     it and spellings of those) each call REST `seek`: before, each spelling was a session of
 *     its own, kept 30 minutes; now they are one session, keyed by the real path.
 *   - 1,000 MCP health checks (`initialize` and `notifications/initialized`, then nothing, as a
 *     host's health check does) from the same token: at most MAX_SESSIONS HTTP sessions are
 *     kept (MCP and REST together); the rest are refused with 503 and a JSON-RPC error naming
 *     GDN_TOO_MANY_SESSIONS, and the REST session that was already open is still served.
 *     (That the unused ones end after a minute is shown with an injected clock in
 *     test/owner-http-session-bounds.test.ts; here nothing waits.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makeGitRepo, makeTempDir } from '../helpers/git-repo.js';
import { sourceFiles } from '../helpers/brains.js';
import { ownerEnv, runCli, startServe } from '../helpers/owner.js';
import { MAX_SESSIONS } from '../../src/transports/http/session-bounds.js';
import { peakRssMb, recordFigures, rssMb } from './fault-config.js';

/** Spellings of one folder, and health checks, sent (the number). */
const FLOOD = 1_000;
/** Requests in flight at once: a flood, not one connection after another. */
const PARALLEL = 20;
const LINKS = 10;

/** `count` distinct spellings of `dir`, through the folder itself and through each link. */
function spellings(dir: string, links: readonly string[], count: number): string[] {
  const bases = [dir, ...links];
  const tails = (k: number) => ['/.'.repeat(k), '/'.repeat(k), `${'/.'.repeat(k)}/`, `/${'./'.repeat(k)}`];
  const out = new Set<string>();
  for (let k = 0; out.size < count; k++) {
    for (const base of bases) for (const tail of tails(k)) if (out.size < count) out.add(base + tail);
  }
  return [...out];
}

async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += PARALLEL) out.push(...(await Promise.all(items.slice(i, i + PARALLEL).map(fn))));
  return out;
}

test(`${FLOOD} spellings of one folder are one REST session; ${FLOOD} health checks leave at most MAX_SESSIONS sessions`, { timeout: 600_000 }, async () => {
  const home = await makeTempDir('gardener-home-');
  const repo = await makeGitRepo(sourceFiles(5));
  const linkDir = await makeTempDir('gardener-links-');
  const owner = await startServe(home.dir);
  try {
    const url = owner.ready.url!;
    const token = readFileSync(join(home.dir, 'token'), 'utf8').trim();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const rest = async (folder: string, name: string, args: unknown = {}) => {
      const r = await fetch(`${url}/api/tools/${name}`, { method: 'POST', headers: { ...auth, 'x-gardener-folder': folder }, body: JSON.stringify(args) });
      return { status: r.status, body: await r.text() };
    };
    const ingest = await rest(repo.dir, 'ingest');
    assert.equal(ingest.status, 200, ingest.body);
    const links: string[] = [];
    for (let i = 0; i < LINKS; i++) {
      mkdirSync(join(linkDir.dir, `d${i}`));
      const link = join(linkDir.dir, `d${i}`, 'repo');
      symlinkSync(repo.dir, link);
      links.push(link);
    }
    const names = spellings(repo.dir, links, FLOOD);
    assert.equal(names.length, FLOOD);
    const seeks = await inBatches(names, (n) => rest(n, 'seek', { query: 'fn3' }));
    assert.deepEqual(seeks.filter((s) => s.status !== 200), [], 'every spelling is served');
    const brains = (await (await fetch(`${url}/api/brains`, { headers: auth })).json()) as { brains: { sessions: number }[] };
    const restSessions = brains.brains[0]!.sessions;
    const rssAfterSpellings = rssMb(owner.pid);

    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'health-check', version: '0' } } });
    const mcpHeaders = { ...auth, accept: 'application/json, text/event-stream' };
    const checks = await inBatches(names, async (n) => {
      const r = await fetch(`${url}/mcp?folder=${encodeURIComponent(n)}`, { method: 'POST', headers: mcpHeaders, body: initialize });
      const text = await r.text();
      const id = r.headers.get('mcp-session-id');
      if (id) {
        const note = await fetch(`${url}/mcp`, { method: 'POST', headers: { ...mcpHeaders, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
        await note.text();
      }
      return { status: r.status, text };
    });
    const accepted = checks.filter((c) => c.status === 200).length;
    const refused = checks.filter((c) => c.status === 503);
    const status = await runCli(['serve', '--status', '--json'], ownerEnv(home.dir));
    assert.equal(status.code, 0, status.stderr);
    const mcpSessions = (JSON.parse(status.stdout) as { sessions: { http: number } }).sessions.http;
    const stillServed = await rest(`${repo.dir}/./`, 'seek', { query: 'fn3' });
    const figures = {
      spellings: FLOOD,
      symlinks: LINKS,
      rest_sessions_for_spellings: restSessions,
      health_checks: FLOOD,
      health_checks_accepted: accepted,
      health_checks_refused: refused.length,
      mcp_sessions_kept: mcpSessions,
      max_sessions: MAX_SESSIONS,
      rss_after_spellings_mb: rssAfterSpellings,
      rss_after_mb: rssMb(owner.pid),
      peak_rss_mb: peakRssMb(owner.pid),
    };
    recordFigures('session-flood', figures);
    assert.equal(restSessions, 1, `${FLOOD} spellings of one folder are one session`);
    assert.ok(mcpSessions + restSessions <= MAX_SESSIONS, `${mcpSessions} MCP + ${restSessions} REST sessions kept, bound ${MAX_SESSIONS}`);
    assert.equal(accepted + refused.length, FLOOD, 'every health check was accepted or refused with 503');
    assert.ok(refused.every((c) => /GDN_TOO_MANY_SESSIONS/.test(c.text)), refused[0]?.text);
    assert.equal(stillServed.status, 200, 'the session already open is still served');
  } finally {
    await owner.stop();
    await repo.cleanup();
    await linkDir.cleanup();
    await home.cleanup();
  }
});
