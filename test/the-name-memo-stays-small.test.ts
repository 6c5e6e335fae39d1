/**
 * Definition names are split into words once and remembered (src/ranking/words.ts), in memory for
 * the owner's whole life. An owner sees new names for weeks (every file a burst adds brings its
 * own), so the memo is bounded by a count that costs a few MB at most: 100,000 split names held
 * about 33 MB of the main thread's heap (measured, --expose-gc) and the soak's owner filled it
 * a few thousand names every ten minutes, a slope in its heap that looked like a leak.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NAME_MEMO_MAX_ENTRIES, nameMemoEntries, splitWords, wordsOfName } from '../src/ranking/words.js';

test('the name memo holds at most NAME_MEMO_MAX_ENTRIES names however many it has split, and keeps the ones in use', () => {
  assert.ok(NAME_MEMO_MAX_ENTRIES <= 20_000, `the bound is ${NAME_MEMO_MAX_ENTRIES} names: at ~340 bytes a name that is past a few MB`);
  const hot = 'handleSaveRequest';
  const hotWords = wordsOfName(hot);
  let most = 0;
  for (let i = 0; i < 5 * NAME_MEMO_MAX_ENTRIES; i++) {
    const name = `parse_config${i}Value`;
    assert.deepEqual(wordsOfName(name), splitWords(name));
    if (i % 100 === 0) assert.equal(wordsOfName(hot), hotWords, 'a name asked for all along keeps its words (the same array)');
    most = Math.max(most, nameMemoEntries());
  }
  assert.ok(most <= NAME_MEMO_MAX_ENTRIES, `the memo held ${most} names (at most ${NAME_MEMO_MAX_ENTRIES})`);
  assert.deepEqual(wordsOfName('HTTPServerError'), splitWords('HTTPServerError'));
});
