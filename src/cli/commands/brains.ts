/**
 * `gardener brains`: every brain of the home, with its folders (gone or there) and the disk its
 * store takes. `--prune` removes the brains whose folders are all gone and brain folders no
 * registry entry names; `--remove ID|DIR` removes one. Removing needs the home to itself: the
 * command holds the owner lock while it works, so no owner runs or starts meanwhile.
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { folderBytes, listHomeBrains, removeBrains, resolveHome, type ListedBrain, type Removal } from '../../brain/index.js';
import { InvalidArgumentError, OwnerHoldsHomeError } from '../../errors.js';
import { OwnerLock } from '../../owner/owner-lock.js';
import { readOwnerFile } from '../../owner/owner-file.js';
import { makePrivateDir, runPaths } from '../../owner/run-paths.js';
import { printJson, printLine } from '../output.js';

export interface BrainsOptions {
  json?: boolean;
  prune?: boolean;
  remove?: string;
  dryRun?: boolean;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function brains(opts: BrainsOptions): Promise<void> {
  if (opts.prune && opts.remove !== undefined) throw new InvalidArgumentError('--prune and --remove cannot be used together: prune removes every brain whose folders are gone, --remove one you name');
  if (opts.dryRun && !opts.prune && opts.remove === undefined) throw new InvalidArgumentError('--dry-run goes with --prune or --remove');
  const home = resolveHome();
  if (!opts.prune && opts.remove === undefined) return show(home, opts.json === true);

  const list = listHomeBrains(home);
  const chosen = opts.prune ? list.brains.filter((b) => b.gone) : [named(home, list.brains, opts.remove!)];
  const orphans = opts.prune ? list.orphans : [];
  // What a removal frees, counted once from what is there before it (a dry run and a removal say the same).
  const bytes = new Map<string, number>([...list.brains.map((b) => [b.id, b.bytes] as const), ...orphans.map((dir) => [dir, folderBytes(dir)] as const)]);
  const outcome: Removal = opts.dryRun || chosen.length + orphans.length === 0
    ? { removed: chosen.map((b) => b.id), orphans }
    : holdingTheHome(home, opts.prune ? 'brains are pruned' : 'a brain is removed', () => removeBrains(home, chosen.map((b) => b.id), orphans));
  const freedBytes = [...outcome.removed, ...outcome.orphans].reduce((s, key) => s + (bytes.get(key) ?? 0), 0);
  if (opts.json) return printJson({ removed: outcome.removed, orphans: outcome.orphans, freed_bytes: freedBytes, dry_run: opts.dryRun === true });
  if (outcome.removed.length + outcome.orphans.length === 0) return printLine('gardener brains: nothing to prune (every brain has a folder, no stray brain folder)');
  const verb = opts.dryRun ? 'would remove' : 'removed';
  const roots = new Map(list.brains.map((b) => [b.id, b.roots.map((r) => r.path).join(', ')]));
  for (const id of outcome.removed) printLine(`${verb} brain ${id} (${roots.get(id)})`);
  for (const dir of outcome.orphans) printLine(`${verb} ${dir} (no registry entry names it)`);
  printLine(`${opts.dryRun ? 'would free' : 'freed'} ${mb(freedBytes)}; the folders the brains mapped are not touched`);
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
function named(home: string, brains: ListedBrain[], what: string): ListedBrain {
  const byId = brains.find((b) => b.id === what);
  if (byId) return byId;
  const abs = resolve(what);
  const real = existsSync(abs) ? realpathSync(abs) : abs;
  const byRoot = brains.find((b) => b.roots.some((r) => r.path === real || r.path === abs));
  if (byRoot) return byRoot;
  throw new InvalidArgumentError(`no brain "${what}" in ${home}: \`gardener brains\` lists them (give an id, or a folder that is a brain's root)`);
}

/** Runs `work` holding the home's owner lock, or refuses when an owner holds it. */
function holdingTheHome<T>(home: string, what: string, work: () => T): T {
  const paths = runPaths(home);
  makePrivateDir(paths.runDir);
  const lock = OwnerLock.take(paths.lockFile);
  if (!lock) throw new OwnerHoldsHomeError(home, readOwnerFile(paths.ownerFile)?.pid ?? null, what);
  try {
    return work();
  } finally {
    lock.release();
  }
}
