/**
 * One client cannot stall or bloat the owner with deep JSON: 32 bodies of 4 MiB nested
 * `[[[…]]]` a million deep arrive at a real `gardener serve` at once (half REST, half /mcp,
 * sent by a process of their own), while another client keeps calling REST `seek`. Before the
 * untrusted-JSON rule the owner ran `JSON.parse` on each of them on its main thread: four at
 * once stalled every other client for 2.4 s and RSS rose to 659 MB. Now each is refused by a
 * byte scan (nesting past MAX_JSON_DEPTH) before anything is built.
 *
 * Three rounds of that (FAULTS_SCALE scales them). Held: every deep body gets 400 (REST
 * `GDN_JSON_TOO_DEEP`, /mcp -32600); the other client's seek p99 over the attack stays within
 * 250 ms; the owner's RSS is under 300 MB once the bodies are answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peakRssMb, recordFigures, rssMb, scaled } from './fault-config.js';
import { BODIES_AT_ONCE, RSS_BOUND_MB, SEEK_P99_BOUND_MS, percentile, withBodyAttack } from './body-attack.js';

/**
 * Rounds of the attack, one after the other: more seeks to take the p99 over (one round gives
 * some 40, so its p99 is its slowest seek, which a busy machine's scheduler can decide alone).
 */
const ROUNDS = scaled(3);

test(`${BODIES_AT_ONCE} bodies nested a million deep neither stall another client (seek p99 within ${SEEK_P99_BOUND_MS} ms) nor bloat the owner (RSS under ${RSS_BOUND_MB} MB)`, { timeout: 600_000 }, async () => {
  await withBodyAttack(async ({ owner, quiet, round }) => {
    const rssBefore = rssMb(owner.pid);
    const during: number[] = [];
    const attackMs: number[] = [];
    let refused = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const attack = await round('deep', during);
      attackMs.push(attack.ms);
      for (const [i, a] of attack.answers.entries()) {
        assert.equal(a.status, 400, `round ${r}, deep body ${i}: ${a.body}`);
        assert.match(a.body, i % 2 === 0 ? /GDN_JSON_TOO_DEEP/ : /-32600/);
        refused++;
      }
    }
    const rssAfter = rssMb(owner.pid);
    assert.ok(during.length > 0, 'some seeks ran during the attack');
    const figures = {
      bodies: BODIES_AT_ONCE,
      body_bytes: 4 * 1024 * 1024,
      depth: 1_000_000,
      rounds: ROUNDS,
      refused,
      attack_ms: Math.max(...attackMs),
      seeks_during: during.length,
      seek_p50_ms: Math.round(percentile(during, 0.5)),
      seek_p99_ms: Math.round(percentile(during, 0.99)),
      seek_max_ms: Math.round(Math.max(...during)),
      quiet_seek_p50_ms: Math.round(percentile(quiet, 0.5)),
      rss_before_mb: rssBefore,
      rss_after_mb: rssAfter,
      peak_rss_mb: peakRssMb(owner.pid),
      p99_bound_ms: SEEK_P99_BOUND_MS,
      rss_bound_mb: RSS_BOUND_MB,
    };
    recordFigures('deep-bodies', figures);
    assert.ok(figures.seek_p99_ms <= SEEK_P99_BOUND_MS, `another client's seek p99 ${figures.seek_p99_ms} ms within ${SEEK_P99_BOUND_MS} ms`);
    assert.ok(rssAfter !== null && rssAfter <= RSS_BOUND_MB, `the owner's RSS ${rssAfter} MB after the attack within ${RSS_BOUND_MB} MB`);
    assert.equal((await fetch(`${owner.ready.url}/healthz`)).status, 200);
  });
});
