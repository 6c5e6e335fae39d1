/**
 * How many files each round's burst touches, dealt from a deck per brain so that every stretch
 * of the day carries the same load.
 *
 * The big brain's deck of 8: one burst of 1000 files, three of 100, two of 10, two of 1 (1000
 * on the big brain alone); the other brains' deck of 10: four of 60, three of 10, three of 1.
 * Each deck is shuffled with the workload's random numbers and dealt out before the next.
 *
 * Why a deck and not a die per round: the soak judges memory by a least-squares slope from the
 * end of the warm-up and by whether the last third of the day makes a new peak, and both read a
 * stretch with more bursts than the rest as growth. Rolled independently (P(1000) = 0.12), the
 * default seed's two-hour day had one 1000-file burst in each of minutes 70-80 and 80-90 and
 * eight in minutes 110-120 (as many as the warm-up), and the RSS of both Bun runs followed them
 * (docs/reliability.md). Dealt, two 1000-file bursts are never more than 14 visits apart.
 *
 * The warm-up is the exception: the big brain's first `warmupVisits` visits (one per git move,
 * workload.ts MOVES) burst 1000 files each, so the memory bound, judged after the warm-up, is
 * judged after the day's heaviest work of each kind has run once.
 */
import type { Rng } from '../fixtures/source-files.js';
import type { TreeKind } from './trees.js';

const BIG_DECK: readonly number[] = [1, 1, 10, 10, 100, 100, 100, 1000];
const SMALL_DECK: readonly number[] = [1, 1, 1, 10, 10, 10, 60, 60, 60, 60];

export class BurstSizes {
  #dealt = new Map<TreeKind, number[]>();

  constructor(
    private rng: Rng,
    private warmupVisits: number,
  ) {}

  /** The burst of a brain's `visit`-th round. */
  next(kind: TreeKind, visit: number): number {
    if (kind === 'big' && visit < this.warmupVisits) return 1000;
    let left = this.#dealt.get(kind);
    if (!left?.length) {
      left = this.#shuffled(kind === 'big' ? BIG_DECK : SMALL_DECK);
      this.#dealt.set(kind, left);
    }
    return left.pop()!;
  }

  #shuffled(deck: readonly number[]): number[] {
    const out = [...deck];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.rng.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
