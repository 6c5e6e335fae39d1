/**
 * Shallow JSON can cost as much as deep JSON: a 4 MiB body holding a million `[1]` is one level
 * deep, and `JSON.parse` spent 150-400 ms and 60 MB on each; 32 at once held another client's
 * seek for 5.6 s and took the owner to 624 MB. Two attacks on a real `gardener serve`, each
 * beside a client calling REST `seek`:
 *
 *   wide   32 bodies of a million `[1]`: refused by the scan (more than MAX_JSON_VALUES values)
 *          before anything is built: REST `GDN_JSON_TOO_MANY_VALUES`, /mcp -32600.
 *   heavy  32 bodies within every bound (99,000 strings of 40 bytes): parsed, then refused by
 *          the tool or the transport; decoded one per turn of the event loop, so the other
 *          client is served between two of them.
 *
 * Held for both: the seek p99 over the attack within 250 ms. For the wide bodies, the owner's RSS
 * is under 300 MB after as well; the heavy ones are parsed on purpose (they are legal), and what
 * their values leave behind is garbage the collector takes in its own time, so their RSS is a
 * figure, not a bound (each is parsed alone, the bytes read at once are bounded by the body
 * budget).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peakRssMb, recordFigures, rssMb, scaled } from './fault-config.js';
import { BODIES_AT_ONCE, RSS_BOUND_MB, SEEK_P99_BOUND_MS, percentile, withBodyAttack } from './body-attack.js';

/** Rounds of each attack (see deep-bodies for why more than one). */
const ROUNDS = scaled(2);

test(`${BODIES_AT_ONCE} wide bodies are refused without stalling another client or bloating the owner; ${BODIES_AT_ONCE} heavy ones within the bounds are parsed one per turn, without stalling it`, { timeout: 600_000 }, async () => {
  await withBodyAttack(async ({ owner, quiet, round }) => {
    const figures: Record<string, unknown> = { bodies: BODIES_AT_ONCE, body_bytes: 4 * 1024 * 1024, rounds: ROUNDS, quiet_seek_p50_ms: Math.round(percentile(quiet, 0.5)) };
    const checks: (() => void)[] = [];
    for (const kind of ['wide', 'heavy'] as const) {
      const during: number[] = [];
      const attackMs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const attack = await round(kind, during);
        attackMs.push(attack.ms);
        for (const [i, a] of attack.answers.entries()) {
          assert.equal(a.status, 400, `${kind} round ${r}, body ${i}: ${a.body}`);
          if (kind === 'wide') assert.match(a.body, i % 2 === 0 ? /GDN_JSON_TOO_MANY_VALUES/ : /-32600/);
        }
      }
      const rssAfter = rssMb(owner.pid);
      assert.ok(during.length > 0, `some seeks ran during the ${kind} attack`);
      const p99 = Math.round(percentile(during, 0.99));
      Object.assign(figures, {
        [`${kind}_attack_ms`]: Math.max(...attackMs),
        [`${kind}_seeks_during`]: during.length,
        [`${kind}_seek_p50_ms`]: Math.round(percentile(during, 0.5)),
        [`${kind}_seek_p99_ms`]: p99,
        [`${kind}_seek_max_ms`]: Math.round(Math.max(...during)),
        [`${kind}_rss_after_mb`]: rssAfter,
      });
      checks.push(() => {
        assert.ok(p99 <= SEEK_P99_BOUND_MS, `${kind}: another client's seek p99 ${p99} ms within ${SEEK_P99_BOUND_MS} ms`);
        if (kind === 'wide') assert.ok(rssAfter !== null && rssAfter <= RSS_BOUND_MB, `${kind}: the owner's RSS ${rssAfter} MB after the attack within ${RSS_BOUND_MB} MB`);
      });
    }
    Object.assign(figures, { peak_rss_mb: peakRssMb(owner.pid), p99_bound_ms: SEEK_P99_BOUND_MS, rss_bound_mb: RSS_BOUND_MB });
    recordFigures('wide-bodies', figures);
    for (const check of checks) check();
  });
});
