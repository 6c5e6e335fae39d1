/** The bench judges peak RSS by the runtime it ran on (issue 31's decision): Node 20 200 MB, Node 22/24 240 MB, Bun 280 MB. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PEAK_RSS_TARGETS_MB, peakRssTargetMb } from '../bench/reference.js';

test('each runtime is held to its own peak RSS target', () => {
  assert.equal(peakRssTargetMb('node v20.20.2'), 200);
  assert.equal(peakRssTargetMb('node v22.13.0'), 240);
  assert.equal(peakRssTargetMb('node v24.21.0'), 240);
  assert.equal(peakRssTargetMb('bun 1.4.5'), 280);
  assert.deepEqual(PEAK_RSS_TARGETS_MB, { node20: 200, node24: 240, bun: 280 });
  // The running runtime's own, when none is named.
  const bun = (process.versions as Record<string, string | undefined>).bun;
  assert.equal(peakRssTargetMb(), bun ? 280 : Number(process.versions.node.split('.')[0]) >= 22 ? 240 : 200);
});
