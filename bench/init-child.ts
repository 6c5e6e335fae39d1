/**
 * The large-repository case's init, in a process of its own (bench/large-repo.ts spawns it), so
 * its peak RSS is the ingest's and not the bench's (which holds the generated repository's
 * layout and its own measures). It does what `gardener init` does (a brain for the folder, one
 * inventory tick), times the stages the way the bench does (stage-clock.ts), and prints one
 * JSON line: { ms, batches, drained, backlogLeft, detectMs, drainMs, gitMs, commitMs,
 * hashWorkMs, maxRssMb }.
 *
 *   node dist/bench/init-child.js <home> <repo>
 */
import { Brains } from '../src/brain/index.js';
import { runTick } from '../src/vigil/index.js';
import { StageClock } from './stage-clock.js';

const [home, repo] = process.argv.slice(2);
if (!home || !repo) {
  process.stderr.write('usage: init-child <home> <repo>\n');
  process.exit(2);
}
const brains = new Brains({ home });
try {
  brains.pool.warm();
  const { brain } = await brains.ensure(repo);
  const clock = new StageClock(brain);
  const t0 = performance.now();
  const report = await runTick(clock.brain, { inventory: true });
  const ms = performance.now() - t0;
  const stages = clock.take();
  process.stdout.write(
    JSON.stringify({
      ms,
      batches: report.batches,
      drained: report.drained,
      backlogLeft: report.backlogLeft,
      detectMs: report.detectMs,
      drainMs: report.drainMs,
      gitMs: stages.gitMs,
      commitMs: stages.commitMs,
      hashWorkMs: stages.hashWorkMs,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
} finally {
  await brains.close();
}
