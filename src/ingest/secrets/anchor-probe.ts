/**
 * The redaction's pre-check (redact-tokens.ts): which token patterns have one of their anchors
 * (token-patterns.ts) in a text. Most source files hold none, and for them this is the whole
 * cost of redaction, paid on every file a drain ingests, so it is built for speed on the miss.
 *
 * Each literal anchor is found through its rarest character in source code (its pivot): the text
 * is searched for that one character with `indexOf` (a memchr), and only where it occurs are the
 * anchors around it compared. Anchors sharing a pivot share the search; an anchor alone on its
 * pivot is searched as its tail from the pivot on (`cret` for `secret`, compared natively), its
 * head checked at each hit. A run anchor (a value's shape: 64 hex characters) is found by looking
 * at every run-length-th character only, since every such run covers one of them.
 *
 * Measured on the bench repository's 8–10 KB files (one sitting, best of 21): one alternation of
 * every anchor, tried at every position, took 37.5 µs a file on Node 20 and 19 µs on Node 24;
 * this takes 22.5 µs and 18.5 µs (in the pool thread's profile of a 1000-file drain on Node 20:
 * 27 ms down to 20 ms of ~170 ms). On 6635 files of public repositories it takes about half the
 * alternation's time. Each search costs a memchr over the text plus ~30 ns per hit of its pivot,
 * so a rarer pivot is a faster one. The 40-character base64 run that aws-secret-access-key's
 * value is would be a valid anchor in place of `secret`, but looking for it costs 5 µs a file
 * (code is mostly letters), twice the `cret` search.
 *
 * The answer is never less than the anchors': nothing is skipped that an anchor would have let
 * run (test/secrets-pre-check-misses-no-anchor.test.ts).
 */
import type { RunAnchor, TokenPattern } from './token-patterns.js';

/**
 * Printable ASCII from the rarest to the most common in source code, measured over 3119 files
 * of 23 public repositories in 17 languages (C, Go, Rust, Java, Kotlin, Python, Ruby, JS/TS…);
 * `_` is moved among the common ones, as it is in snake_case code. A character not listed counts
 * as rarest.
 */
const BY_RARITY = "^~%XQ7Y!98?$Z+J56\\&43GK|H@WVjB<#][2MzqF'UP>1DL0`ONC}{xR-kI*AwE:S=T;vby/\",ghf_.()mpudclsinaorte ";

/** Anchors on one pivot at most: a search keeps which it found in the bits of one number. */
const MAX_GROUP_CHECKS = 31;

const rarity = (c: string) => BY_RARITY.indexOf(c);

interface LiteralCheck {
  anchor: string;
  /** Where the pivot sits in the anchor. */
  offset: number;
  /** The anchor's first character code: a cheap test before the full compare. */
  first: number;
  /** Indexes into the pattern list of the patterns this anchor lets run. */
  patterns: number[];
}

interface PivotGroup {
  /** What is searched: the pivot character, or the lone anchor's tail from its pivot. */
  probe: string;
  checks: LiteralCheck[];
}

interface RunCheck {
  chars: Uint8Array;
  length: number;
  patterns: number[];
}

export interface AnchorProbe {
  /** For each pattern (in the list's order), whether one of its anchors is in `text`; null when none is. */
  (text: string): boolean[] | null;
}

/** Builds the pre-check for `patterns` once (at module load). */
export function anchorProbe(patterns: readonly TokenPattern[]): AnchorProbe {
  const literals = new Map<string, LiteralCheck>();
  const runs: RunCheck[] = [];
  patterns.forEach((p, index) => {
    for (const a of p.anchors) {
      if (typeof a === 'string') {
        const known = literals.get(a);
        if (known) known.patterns.push(index);
        else literals.set(a, { anchor: a, offset: pivotOf(a), first: a.charCodeAt(0), patterns: [index] });
      } else runs.push(runCheck(a, index));
    }
  });
  const byPivot = new Map<string, LiteralCheck[]>();
  for (const check of literals.values()) {
    const pivot = check.anchor[check.offset]!;
    const group = byPivot.get(pivot);
    if (group) group.push(check);
    else byPivot.set(pivot, [check]);
  }
  for (const [pivot, checks] of byPivot) {
    if (checks.length > MAX_GROUP_CHECKS) throw new Error(`token patterns: more than ${MAX_GROUP_CHECKS} anchors pivot on ${JSON.stringify(pivot)}`);
  }
  const groups: PivotGroup[] = [...byPivot].map(([pivot, checks]) =>
    checks.length === 1 ? { probe: checks[0]!.anchor.slice(checks[0]!.offset), checks } : { probe: pivot, checks },
  );
  const count = patterns.length;

  return (text) => {
    let found: boolean[] | null = null;
    for (const group of groups) {
      const { probe, checks } = group;
      let left = checks.length;
      let done = 0;
      for (let i = text.indexOf(probe); i >= 0 && left > 0; i = text.indexOf(probe, i + 1)) {
        for (let c = 0; c < checks.length; c++) {
          const check = checks[c]!;
          const at = i - check.offset;
          if ((done & (1 << c)) !== 0 || at < 0 || text.charCodeAt(at) !== check.first || !text.startsWith(check.anchor, at)) continue;
          // A found anchor is not looked for again.
          done |= 1 << c;
          left--;
          found ??= new Array<boolean>(count).fill(false);
          for (const k of check.patterns) found[k] = true;
        }
      }
    }
    for (const run of runs) {
      if (!hasRun(text, run.chars, run.length)) continue;
      found ??= new Array<boolean>(count).fill(false);
      for (const k of run.patterns) found[k] = true;
    }
    return found;
  };
}

/** The index of the anchor's rarest character. */
function pivotOf(anchor: string): number {
  let best = 0;
  for (let i = 1; i < anchor.length; i++) if (rarity(anchor[i]!) < rarity(anchor[best]!)) best = i;
  return best;
}

function runCheck(anchor: RunAnchor, index: number): RunCheck {
  const chars = new Uint8Array(128);
  for (const c of anchor.chars) {
    const code = c.charCodeAt(0);
    if (code >= 128) throw new Error(`token patterns: a run anchor's characters must be ASCII, got ${JSON.stringify(c)}`);
    chars[code] = 1;
  }
  return { chars, length: anchor.length, patterns: [index] };
}

/** Whether `text` holds `length` characters of `chars` in a row. */
function hasRun(text: string, chars: Uint8Array, length: number): boolean {
  const n = text.length;
  const inRun = (i: number) => {
    const c = text.charCodeAt(i);
    return c < 128 && chars[c] === 1;
  };
  // Any `length` positions in a row hold exactly one of length-1, 2·length-1, …
  for (let i = length - 1; i < n; i += length) {
    if (!inRun(i)) continue;
    let start = i;
    while (start > i - length + 1 && inRun(start - 1)) start--;
    let end = i + 1;
    while (end - start < length && end < n && inRun(end)) end++;
    if (end - start >= length) return true;
  }
  return false;
}
