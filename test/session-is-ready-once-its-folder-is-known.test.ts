/**
 * `session.ready()`: the one handshake wait for a transport that has none of its own (REST).
 * It starts the question about the session folder if the handshake has not, and resolves once
 * the probe's answer has armed the late verbs (or the question failed); it never rejects.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGitRepo } from './helpers/git-repo.js';
import { FolderProbe } from '../src/probe/index.js';
import { Session } from '../src/session/index.js';
import { TOOLS } from '../src/tools/index.js';
import { Vigils } from '../src/vigil/index.js';
import type { Brains } from '../src/brain/index.js';

const NO_BRAINS = {} as Brains;

async function withSession(resolveBrain: () => Promise<{ brainId: string; armed: boolean } | null>, fn: (s: Session, asked: () => number) => Promise<void>) {
  const repo = await makeGitRepo({ 'a.ts': 'export const a = 1;\n' });
  let asks = 0;
  const probe = new FolderProbe({ resolveBrain: () => (asks++, resolveBrain()) });
  const vigils = new Vigils();
  const session = new Session({ folder: repo.dir, brains: NO_BRAINS, vigils, probe, tools: TOOLS, log: () => {} });
  try {
    await fn(session, () => asks);
  } finally {
    await session.close();
    await probe.close();
    await vigils.close();
    await repo.cleanup();
  }
}

test('ready() before any handshake asks about the folder, and resolves with the late verbs listed', async () => {
  await withSession(async () => ({ brainId: 'b1', armed: true }), async (session, asked) => {
    assert.equal(session.isListed('daemon_status'), false);
    await session.ready();
    assert.equal(session.isListed('daemon_status'), true, 'the answer armed the late verbs before ready() resolved');
    assert.equal(session.isListed('changes'), true);
    await session.ready();
    session.start();
    assert.equal(asked(), 1, 'one question however often the session is started or asked to be ready');
  });
});

test('ready() resolves, never rejects, when the folder has no brain or the question fails', async () => {
  await withSession(async () => null, async (session) => {
    await session.ready();
    assert.equal(session.isListed('daemon_status'), false);
  });
  await withSession(async () => Promise.reject(new Error('the registry is unreadable')), async (session) => {
    await session.ready();
    assert.equal(session.isListed('daemon_status'), false);
  });
});

test('ready() of a closed session resolves at once', async () => {
  await withSession(() => new Promise(() => {}), async (session) => {
    await session.close();
    await session.ready();
  });
});
