/**
 * Laws of the folder probe (DESIGN.md §7): one question per folder at a time, each asker
 * waiting on its own signal; a cancelled question is not cached, a failing or hanging git is,
 * for a TTL; close() joins its own git children and nobody else's.
 *
 * Nothing here is timed. A fake `git` first on PATH parks on a named pipe until the test
 * releases it, and the assertions are about how many times it was launched and whether the
 * process the probe spawned is still alive. The TTL runs on an injected clock. The only real
 * waits are the probe's own bounds, never asserted on: a hanging git exceeding a 50 ms
 * gitTimeoutMs, and a git that ignores SIGTERM waiting out KILL_GRACE_MS before SIGKILL.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { AbortedError, InvalidArgumentError } from '../src/errors.js';
import { FolderProbe, type BrainResolution, type FolderProbeOptions, type ProbeAnswer } from '../src/probe/index.js';
import { isAlive, makeFakeGit, waitUntilGone, type FakeGit, type FakeGitBehaviour } from './helpers/fake-git.js';
import { makeGitRepo, makeTempDir, testGitEnv } from './helpers/git-repo.js';

const TTL_MS = 30_000;
/** A red law must fail, not hang the run: each test is bounded (this is not a timing assertion). */
const T = { timeout: 10_000 };

interface Rig {
  fake: FakeGit;
  /** The folder asked about (a plain temp folder: the fake git does not look at it). */
  folder: string;
  /** Current time of the injected clock; move it with `rig.clock.t = …`. */
  clock: { t: number };
  /** A probe on the fake git and the injected clock; closed by the rig. */
  probe(options?: FolderProbeOptions): FolderProbe;
}

async function withFakeGit(behaviour: FakeGitBehaviour, fn: (rig: Rig) => Promise<void>): Promise<void> {
  const fake = await makeFakeGit(behaviour);
  const temp = await makeTempDir('gardener-probe-');
  const clock = { t: 0 };
  const probes: FolderProbe[] = [];
  const probe = (options: FolderProbeOptions = {}): FolderProbe => {
    const p = new FolderProbe({ env: fake.env, now: () => clock.t, ...options });
    probes.push(p);
    return p;
  };
  try {
    await fn({ fake, folder: temp.dir, clock, probe });
  } finally {
    await Promise.all(probes.map((p) => p.close()));
    await fake.cleanup();
    await temp.cleanup();
  }
}

function workTree(folder: string): ProbeAnswer {
  return { folder, gitWorkTree: true, gitTop: folder, brainId: null, armed: false, error: null };
}

describe('folder probe', () => {
  describe('one question per folder at a time', () => {
    it('concurrent asks for the same folder share one git launch', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
        const p = probe();
        const asks = [p.ask(folder), p.ask(folder), p.ask(folder), p.ask(`${folder}/`), p.ask(folder)];
        await fake.waitForLaunches(1);
        assert.ok(p.running(folder), 'the question is in flight while git is parked');
        await fake.release();
        for (const answer of await Promise.all(asks)) assert.deepEqual(answer, workTree(folder));
        assert.equal((await fake.pids()).length, 1);
        assert.equal(p.launches, 1);
        assert.equal(p.running(folder), undefined);
      }));

    it('an asker whose signal aborts leaves at once, and the question still answers the others', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
        const p = probe();
        const first = new AbortController();
        const third = new AbortController();
        const a = p.ask(folder, first.signal);
        const b = p.ask(folder);
        const c = p.ask(folder, third.signal);
        const [pid] = await fake.waitForLaunches(1);

        // The first asker, whose question it is, leaves while git is parked: it is not held.
        first.abort();
        await assert.rejects(a, AbortedError);
        assert.ok(isAlive(pid!), 'the question goes on for the others');
        third.abort();
        await assert.rejects(c, AbortedError);
        assert.ok(isAlive(pid!), 'one asker remains, so git is not killed');

        await fake.release();
        assert.deepEqual(await b, workTree(folder));
        assert.equal(p.launches, 1);
        assert.deepEqual(p.peek(folder), workTree(folder), 'the answer is cached for the next asker');
      }));

    it('an asker whose signal is already aborted is refused without a launch', T, () =>
      withFakeGit({}, async ({ folder, probe }) => {
        const p = probe();
        await assert.rejects(p.ask(folder, AbortSignal.abort()), AbortedError);
        assert.equal(p.launches, 0);
      }));
  });

  describe('a question cut by cancellation is not cached', () => {
    it('when every asker aborts, git is killed and the next ask launches it again', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
        const p = probe();
        const one = new AbortController();
        const two = new AbortController();
        const a = p.ask(folder, one.signal);
        const b = p.ask(folder, two.signal);
        const [pid] = await fake.waitForLaunches(1);
        one.abort();
        two.abort();
        await assert.rejects(a, AbortedError);
        await assert.rejects(b, AbortedError);
        await waitUntilGone(pid!);
        assert.equal(p.peek(folder), undefined, 'nothing cached');
        assert.equal(p.running(folder), undefined, 'nothing in flight');

        fake.setBehaviour({});
        assert.deepEqual(await p.ask(folder), workTree(folder));
        assert.equal(p.launches, 2);
        assert.equal((await fake.pids()).length, 2);
      }));

    it('a question cancelled after git answered, while the brain resolver was still answering, is not cached either', T, () =>
      withFakeGit({}, async ({ folder, probe }) => {
        let called!: () => void;
        const resolverCalled = new Promise<void>((resolve) => (called = resolve));
        let answerBrain!: (found: BrainResolution | null) => void;
        let calls = 0;
        const p = probe({
          resolveBrain: () => {
            calls++;
            if (calls > 1) return Promise.resolve({ brainId: 'b-1', armed: true });
            called();
            return new Promise((resolve) => (answerBrain = resolve));
          },
        });
        const asker = new AbortController();
        const a = p.ask(folder, asker.signal);
        await resolverCalled; // git has answered; the question now waits on the resolver
        asker.abort();
        await assert.rejects(a, AbortedError);
        answerBrain({ brainId: 'b-1', armed: true });
        await new Promise<void>((resolve) => setImmediate(resolve));
        assert.equal(p.peek(folder), undefined, 'a cancelled question is not cached, however far it got');

        assert.deepEqual(await p.ask(folder), { ...workTree(folder), brainId: 'b-1', armed: true });
        assert.equal(p.launches, 2);
      }));
  });

  describe('answers are cached: successes for the probe\'s life, failures for a TTL', () => {
    it('a work tree is asked once however late the next ask comes, until forget()', T, () =>
      withFakeGit({}, async ({ fake, folder, clock, probe }) => {
        const p = probe();
        assert.equal(p.peek(folder), undefined);
        assert.deepEqual(await p.ask(folder), workTree(folder));
        clock.t += 100 * TTL_MS;
        assert.deepEqual(await p.ask(folder), workTree(folder));
        assert.deepEqual(p.peek(folder), workTree(folder));
        assert.equal(p.launches, 1);

        assert.equal(p.forget(folder), true);
        assert.equal(p.peek(folder), undefined);
        await p.ask(folder);
        assert.equal(p.launches, 2);
        assert.equal((await fake.pids()).length, 2);
      }));

    it('at most maxCachedFolders answers, the least recently asked dropped first; forgetBrain drops a removed brain\'s', T, () =>
      withFakeGit({}, async ({ folder, probe }) => {
        const [a, b, c] = ['a', 'b', 'c'].map((n) => join(folder, n));
        for (const d of [a, b, c]) await mkdir(d!);
        const p = probe({ maxCachedFolders: 2, resolveBrain: async (f) => ({ brainId: `brain-${f.slice(-1)}`, armed: false }) });
        await p.ask(a!);
        await p.ask(b!);
        await p.ask(a!); // a asked last: b is now the least recently asked
        await p.ask(c!);
        assert.equal(p.cachedFolders, 2);
        assert.equal(p.peek(b!), undefined, 'b dropped');
        assert.equal(p.peek(a!)?.brainId, 'brain-a');
        assert.equal(p.launches, 3);
        assert.equal(p.forgetBrain('brain-c'), 1);
        assert.equal(p.peek(c!), undefined, 'a removed brain\'s answer is gone');
        assert.equal(p.peek(a!)?.brainId, 'brain-a', 'the others stay');
        await p.ask(c!);
        assert.equal(p.launches, 4, 'asked again, it is asked of git again');
      }));

    it('"not a git repository" is a normal answer, cached like a success', T, () =>
      withFakeGit({ answer: 'not-a-repo' }, async ({ folder, clock, probe }) => {
        const p = probe();
        const expected: ProbeAnswer = { folder, gitWorkTree: false, gitTop: null, brainId: null, armed: false, error: null };
        assert.deepEqual(await p.ask(folder), expected);
        clock.t += 100 * TTL_MS;
        assert.deepEqual(await p.ask(folder), expected);
        assert.equal(p.launches, 1);
      }));

    it('a failing git is launched once per TTL: 8 questions, 1 launch; after the TTL, a 2nd', T, () =>
      withFakeGit({ answer: 'fail' }, async ({ fake, folder, clock, probe }) => {
        const p = probe();
        for (let i = 0; i < 8; i++) {
          clock.t = i * 4_000; // 0 … 28 s
          const answer = await p.ask(folder);
          assert.equal(answer.gitWorkTree, false);
          assert.equal(answer.gitTop, null);
          assert.match(answer.error ?? '', /exited with 1.*told to fail/);
        }
        assert.equal(p.launches, 1);
        assert.equal((await fake.pids()).length, 1);

        clock.t = TTL_MS;
        assert.match((await p.ask(folder)).error ?? '', /exited with 1/);
        assert.equal(p.launches, 2);
        assert.equal((await fake.pids()).length, 2);
      }));

    it('a hanging git is killed at gitTimeoutMs and launched once per TTL', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, clock, probe }) => {
        const p = probe({ gitTimeoutMs: 50 });
        for (let i = 0; i < 8; i++) {
          clock.t = i * 4_000;
          const answer = await p.ask(folder);
          assert.equal(answer.gitWorkTree, false);
          assert.match(answer.error ?? '', /did not answer within 50 ms/);
        }
        assert.equal(p.launches, 1);
        // Killed on its own timeout, not only at close.
        const [pid] = await fake.waitForLaunches(1);
        await waitUntilGone(pid!);

        clock.t = TTL_MS;
        assert.match((await p.ask(folder)).error ?? '', /did not answer/);
        assert.equal(p.launches, 2);
      }));

    it('a git that cannot start (ENOENT) is cached for the TTL', T, () =>
      withFakeGit({}, async ({ fake, folder, clock, probe }) => {
        const p = probe({ gitBinary: join(fake.binDir, 'no-such-git') });
        for (let i = 0; i < 8; i++) {
          clock.t = i * 4_000;
          assert.match((await p.ask(folder)).error ?? '', /ENOENT/);
        }
        assert.equal(p.launches, 1);
        clock.t = TTL_MS;
        await p.ask(folder);
        assert.equal(p.launches, 2);
      }));

    it('the brain resolver\'s answer is carried; a resolver that throws is an error cached for the TTL', T, () =>
      withFakeGit({}, async ({ folder, clock, probe }) => {
        const asked: string[] = [];
        const armed = probe({
          resolveBrain: async (f) => {
            asked.push(f);
            return { brainId: 'b-1', armed: true };
          },
        });
        assert.deepEqual(await armed.ask(folder), { ...workTree(folder), brainId: 'b-1', armed: true });
        assert.deepEqual(asked, [folder]);

        let calls = 0;
        const broken = probe({
          resolveBrain: async () => {
            calls++;
            throw new Error('registry unreadable');
          },
        });
        const answer = await broken.ask(folder);
        assert.equal(answer.gitWorkTree, true, 'what git said stays true');
        assert.equal(answer.brainId, null);
        assert.equal(answer.armed, false);
        assert.match(answer.error ?? '', /registry unreadable/);
        clock.t = TTL_MS - 1;
        await broken.ask(folder);
        assert.equal(calls, 1);
        clock.t = TTL_MS;
        await broken.ask(folder);
        assert.equal(calls, 2);
      }));
  });

  describe('close() joins its own background work', () => {
    it('the git that was still answering is gone when close resolves', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
        const p = probe();
        const refused = assert.rejects(p.ask(folder), AbortedError);
        const [pid] = await fake.waitForLaunches(1);
        await p.close();
        assert.equal(isAlive(pid!), false);
        await refused;
        await assert.rejects(p.ask(`${folder}/other`), AbortedError, 'a closed probe starts no git');
        assert.equal(p.launches, 1);
      }));

    it('a git that ignores SIGTERM is killed after the grace and joined', T, () =>
      withFakeGit({ park: true, ignoreTerm: true }, async ({ fake, folder, probe }) => {
        const p = probe();
        const refused = assert.rejects(p.ask(folder), AbortedError);
        const [pid] = await fake.waitForLaunches(1);
        await p.close();
        assert.equal(isAlive(pid!), false);
        await refused;
      }));

    it('closing one probe does not wait behind another probe\'s parked git', T, () =>
      withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
        const otherFifo = fake.makeFifo('other.fifo');
        const sessionA = probe();
        const sessionB = probe({ env: { ...fake.env, FAKE_GIT_FIFO: otherFifo } });
        const a = sessionA.ask(folder);
        const [pidA] = await fake.waitForLaunches(1);
        const bRefused = assert.rejects(sessionB.ask(folder), AbortedError);
        const pidB = (await fake.waitForLaunches(2)).find((pid) => pid !== pidA)!;

        await sessionB.close();
        assert.equal(isAlive(pidB), false, "B's own git is joined");
        assert.equal(isAlive(pidA!), true, "A's git is not B's to kill");
        await bRefused;

        await fake.release();
        assert.deepEqual(await a, workTree(folder));
      }));
  });

  it('git is spawned with stdin ignored, output piped, GIT_OPTIONAL_LOCKS=0, no GIT_DIR, not detached', T, () =>
    withFakeGit({ park: true }, async ({ fake, folder, probe }) => {
      const p = probe({ env: { ...fake.env, GIT_OPTIONAL_LOCKS: '1', GIT_DIR: '/elsewhere/.git' } });
      const answer = p.ask(folder);
      const [pid] = await fake.waitForLaunches(1);
      const report = await fake.report(pid!);
      assert.equal(report.stdin, 'devnull', "stdin is 'ignore' (/dev/null), not a pipe git could wait on");
      assert.equal(report.GIT_OPTIONAL_LOCKS, '0');
      assert.equal(report.GIT_DIR, '', 'an inherited GIT_DIR would point git at another repository');
      assert.equal(report.args, `-C ${folder} rev-parse --is-inside-work-tree --show-toplevel`);
      // detached: true would make the child a process-group leader; it must stay in ours.
      assert.throws(() => process.kill(-pid!, 0), { code: 'ESRCH' });
      await fake.release();
      assert.deepEqual(await answer, workTree(folder), 'stdout was piped and read');
    }));

  it('peek and running never start git', T, () =>
    withFakeGit({}, async ({ folder, probe }) => {
      const p = probe();
      assert.equal(p.peek(folder), undefined);
      assert.equal(p.running(folder), undefined);
      assert.equal(p.launches, 0);
    }));

  it('options are checked at construction, naming the option and the value', T, () => {
    const bad: Array<[FolderProbeOptions, RegExp]> = [
      [{ gitTimeoutMs: 0 }, /options\.gitTimeoutMs .*got `0` \(number\)/],
      [{ gitTimeoutMs: Number.NaN }, /options\.gitTimeoutMs .*got `NaN`/],
      [{ failureTtlMs: -1 }, /options\.failureTtlMs .*got `-1` \(number\)/],
      [{ gitBinary: '' }, /options\.gitBinary .*got `` \(string\)/],
      [{ now: 5 as unknown as () => number }, /options\.now .*got `5` \(number\)/],
      [{ resolveBrain: 'x' as unknown as FolderProbeOptions['resolveBrain'] }, /options\.resolveBrain .*got `x` \(string\)/],
      [{ env: null as unknown as NodeJS.ProcessEnv }, /options\.env .*got `null`/],
    ];
    for (const [options, message] of bad) {
      assert.throws(() => new FolderProbe(options), (err: unknown) => {
        assert.ok(err instanceof InvalidArgumentError);
        assert.match(err.message, message);
        return true;
      });
    }
  });

  it('real git: a git init repository is a work tree at its realpath; a plain folder and .git are not', T, async () => {
    const repo = await makeGitRepo({ 'a.txt': 'a\n' });
    const plain = await makeTempDir();
    const env = { ...testGitEnv(), GIT_CEILING_DIRECTORIES: dirname(plain.dir) };
    const p = new FolderProbe({ env });
    try {
      await mkdir(join(repo.dir, 'src'));
      const inside = await p.ask(join(repo.dir, 'src'));
      assert.equal(inside.gitWorkTree, true);
      assert.equal(inside.gitTop, repo.dir);
      assert.equal(inside.error, null);

      const outside = await p.ask(plain.dir);
      assert.deepEqual(outside, { folder: plain.dir, gitWorkTree: false, gitTop: null, brainId: null, armed: false, error: null });

      const gitDir = await p.ask(join(repo.dir, '.git'));
      assert.equal(gitDir.gitWorkTree, false);
      assert.equal(gitDir.error, null);
      assert.equal(p.launches, 3);
    } finally {
      await p.close();
      await repo.cleanup();
      await plain.cleanup();
    }
  });
});
