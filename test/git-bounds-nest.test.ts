/**
 * One timeout name, one meaning, and the bounds nest: a git run inside a pool task is always
 * killed (by its own bound, or by the detect task's) before the pool's bound on the task would
 * end the thread and orphan it; the probe's one git is the shortest, because a session waits on it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GIT_COMMAND_TIMEOUT_MS } from '../src/detect/index.js';
import { POOL_TASK_TIMEOUT_MS, DETECT_TASK_TIMEOUT_MS, ABORT_ANSWER_MS } from '../src/pool/index.js';
import { PROBE_GIT_TIMEOUT_MS } from '../src/probe/index.js';

test('a git inside a pool task is bounded below the pool task bound', () => {
  assert.ok(GIT_COMMAND_TIMEOUT_MS < DETECT_TASK_TIMEOUT_MS, 'one git ends before its detect task does');
  assert.ok(DETECT_TASK_TIMEOUT_MS + ABORT_ANSWER_MS < POOL_TASK_TIMEOUT_MS, 'a detect task kills its git and answers before the pool would end the thread');
  assert.ok(PROBE_GIT_TIMEOUT_MS < GIT_COMMAND_TIMEOUT_MS, "the probe's git, which a session waits on, is the shortest");
});
