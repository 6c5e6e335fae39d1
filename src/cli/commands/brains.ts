/**
 * `gardener brains`: every brain of the home, with its folders (gone or there) and the disk its
 * store takes. `--prune` removes the brains whose folders are all gone and brain folders no
 * registry entry names; `--remove ID|DIR` removes one. Removing needs the home: with no owner
 * running the command takes the owner lock while it works (so none starts meanwhile); with one
 * running, it asks that owner over its socket, which closes the brains and removes them itself.
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { bytesFreed, listHomeBrains, planRemoval, Registry, removeBrains, resolveHome, type BrainEntry, type RemovalChoice, type RemovalPlan } from '../../brain/index.js';
import { InvalidArgumentError, OwnerHoldsHomeError } from '../../errors.js';
import { dialOwnerOf } from '../../owner/dial-home.js';
import { OwnerLock } from '../../owner/owner-lock.js';
import { readOwnerFile } from '../../owner/owner-file.js';
import { makePrivateDir, runPaths } from '../../owner/run-paths.js';
import { VERSION } from '../../version.js';
import { printJson, printLine } from '../output.js';

export interface BrainsOptions {
  json?: boolean;
  prune?: boolean;
  remove?: string;
  dryRun?: boolean;
}

/**
 * How long a running owner has to answer a removal: it closes each brain first, and a tick in
 * flight on one ends at its next batch.
 */
const OWNER_REMOVAL_TIMEOUT_MS = 30_000;

interface Outcome {
  removed: string[];
  orphans: string[];
  freedBytes: number;
  /** The owner's pid when a running owner removed them. */
  byOwner: number | null;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function brains(opts: BrainsOptions): Promise<void> {
  if (opts.prune && opts.remove !== undefined) throw new InvalidArgumentError('--prune and --remove cannot be used together: prune removes every brain whose folders are gone, --remove one you name');
  if (opts.dryRun && !opts.prune && opts.remove === undefined) throw new InvalidArgumentError('--dry-run goes with --prune or --remove');
  const home = resolveHome();
  if (!opts.prune && opts.remove === undefined) return show(home, opts.json === true);

  const entries = new Registry(home).list();
  const choice: RemovalChoice = opts.prune ? { prune: true } : { ids: [named(home, entries, opts.remove!).id] };
  // What a removal frees, counted once from what is there before it (a dry run and a removal say the same).
  const plan = planRemoval(home, choice, entries);
  const outcome: Outcome = opts.dryRun || plan.removed.length + plan.orphans.length === 0
    ? { removed: plan.removed, orphans: plan.orphans, freedBytes: bytesFreed(plan, plan), byOwner: null }
    : await removeHoldingTheHome(home, choice, plan);
  if (opts.json) {
    return printJson({ removed: outcome.removed, orphans: outcome.orphans, freed_bytes: outcome.freedBytes, dry_run: opts.dryRun === true, ...(outcome.byOwner !== null ? { by_owner_pid: outcome.byOwner } : {}) });
  }
  if (outcome.removed.length + outcome.orphans.length === 0) return printLine('gardener brains: nothing to prune (every brain has a folder, no stray brain folder)');
  const verb = opts.dryRun ? 'would remove' : 'removed';
  for (const id of outcome.removed) printLine(`${verb} brain ${id}${plan.roots.has(id) ? ` (${plan.roots.get(id)})` : ''}`);
  for (const dir of outcome.orphans) printLine(`${verb} ${dir} (no registry entry names it)`);
  const by = outcome.byOwner !== null ? ` (by the running owner, pid ${outcome.byOwner}, which closed them first)` : '';
  printLine(`${opts.dryRun ? 'would free' : 'freed'} ${mb(outcome.freedBytes)}${by}; the folders the brains mapped are not touched`);
}

function show(home: string, json: boolean): void {
  const list = listHomeBrains(home);
  if (json) return printJson(list);
  if (list.brains.length === 0) printLine(`no brains in ${home}: \`gardener init DIR\` makes one`);
  for (const b of list.brains) {
    const roots = b.roots.map((r) => `${r.path}${r.present ? '' : ' (gone)'}`).join(', ');
    const facts = b.unreadable ? `store unreadable: ${b.unreadable}` : `${b.files} files${b.armed ? ', armed' : ''}`;
    printLine(`${b.id}  ${roots}  ${mb(b.bytes)}, ${facts}`);
  }
  const gone = list.brains.filter((b) => b.gone);
  if (gone.length > 0) printLine(`${gone.length} of ${list.brains.length} brains have no folder left: \`gardener brains --prune\` removes them (${mb(gone.reduce((s, b) => s + b.bytes, 0))})`);
  if (list.orphans.length > 0) printLine(`${list.orphans.length} brain folders no registry entry names: \`gardener brains --prune\` removes them`);
}

/** The brain `what` names: an id, or a folder that is exactly one of a brain's roots. */
function named(home: string, brains: readonly BrainEntry[], what: string): BrainEntry {
  const byId = brains.find((b) => b.id === what);
  if (byId) return byId;
  const abs = resolve(what);
  const real = existsSync(abs) ? realpathSync(abs) : abs;
  const byRoot = brains.find((b) => b.roots.some((r) => r === real || r === abs));
  if (byRoot) return byRoot;
  throw new InvalidArgumentError(`no brain "${what}" in ${home}: \`gardener brains\` lists them (give an id, or a folder that is a brain's root)`);
}

/**
 * Removes what `plan` names holding the home's owner lock; when a running owner holds it, asks
 * that owner to remove them (it plans again from the home as it finds it, closing each brain
 * first). An owner that holds the lock and does not answer removes nothing: exit 2.
 */
async function removeHoldingTheHome(home: string, choice: RemovalChoice, plan: RemovalPlan): Promise<Outcome> {
  const paths = runPaths(home);
  makePrivateDir(paths.runDir);
  const lock = OwnerLock.take(paths.lockFile);
  if (lock) {
    try {
      const r = removeBrains(home, plan.removed, plan.orphans);
      return { ...r, freedBytes: bytesFreed(plan, r), byOwner: null };
    } finally {
      lock.release();
    }
  }
  const pid = readOwnerFile(paths.ownerFile)?.pid ?? null;
  const d = await dialOwnerOf(home, { gardener: VERSION, op: 'brains', pid: process.pid, remove: choice }, OWNER_REMOVAL_TIMEOUT_MS);
  if (!d.socket) throw new OwnerHoldsHomeError(home, pid, d.why);
  d.socket.destroy();
  const r = d.reply.removal as { removed?: string[]; orphans?: string[]; freed_bytes?: number } | undefined;
  if (!d.reply.ok || !r) throw new OwnerHoldsHomeError(home, d.reply.pid, d.reply.error ?? 'its answer named no removal: an owner of another version?');
  return { removed: r.removed ?? [], orphans: r.orphans ?? [], freedBytes: r.freed_bytes ?? 0, byOwner: d.reply.pid };
}
