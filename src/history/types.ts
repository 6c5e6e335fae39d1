/**
 * What crosses the threads for history: the request the detect worker mines for, and what it
 * hands back for the store writer to apply. Plain structured-clone data only.
 */

/** One commit as mined, oldest first in a MinedHistory. */
export interface MinedCommit {
  sha: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  /** The message, cut at MAX_MESSAGE_CHARS; the full-text index reads it. */
  message: string;
  /** Root-relative paths the commit touched; empty for a huge commit (see fileCount) and a root commit. */
  files: string[];
  /** How many paths the commit touched, huge or not. */
  fileCount: number;
}

export interface MineRequest {
  /** Absolute ingest root (a git work tree). */
  root: string;
  /** The commit the map is advanced to: history is mined up to it, never past it. */
  head: string;
  /** The head history was last mined to for this root; null when never. */
  minedHead: string | null;
  /** Newest commits kept. @default HISTORY_MAX_COMMITS */
  maxCommits?: number;
  /** @default 'git' */
  gitBinary?: string;
  gitTimeoutMs?: number;
}

export type HistoryStatus = 'ready' | 'shallow';

export interface MinedHistory {
  status: HistoryStatus;
  head: string;
  /** True: what is stored for the root is dropped first (first build, or minedHead is no longer an ancestor of head). */
  rebuild: boolean;
  /** Oldest first. */
  commits: MinedCommit[];
  /** True when git had more commits in range than maxCommits (only the newest were mined). */
  bounded: boolean;
  gitMs: number;
}

/**
 * What the detect worker answers: the history, or why git could not give it. A failure is data,
 * not a throw: an error crossing Piscina's thread boundary loses its class and code, and its
 * message ("… exited with 128 …") would read as a crashed worker.
 */
export type MineOutcome = MinedHistory | { status: 'failed'; note: string };
