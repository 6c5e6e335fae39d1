/**
 * A commit message as a task text: subject and body without what a task would not say
 * (trailers, PR and issue numbers, links, CI markers), and the kinds of commits that are not
 * a task at all (dependency bumps, releases, reverts, format-only changes).
 */

/** A task must say at least this much to be one. */
export const MIN_TASK_WORDS = 5;
/** Longer messages are cut: a task is a paragraph or two, not a changelog. */
export const MAX_TASK_CHARS = 4000;

const TRAILER = /^\s*(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|change-id|cc|closes|fixes|resolves|refs?|see also|pr-url|pr|issue|bug|link)\s*:.*$/gim;
const THIS_REVERTS = /^this reverts commit.*$/gim;
const ISSUE_REF = /\(?(?:(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+)?(?:[\w.-]+\/[\w.-]+)?(?:#|gh-)\d+\)?/gi;
const URL = /\bhttps?:\/\/\S+/gi;
const EMAIL = /<?[\w.+-]+@[\w-]+\.[\w.-]+>?/g;
const MENTION = /(^|\s)@[\w-]+/g;
const CI_MARK = /\[(skip ci|ci skip|no ci|skip actions)\]/gi;

const NOT_A_TASK: readonly RegExp[] = [
  /^\s*revert\b/i,
  /^\s*(chore|build|ci|fix)?\s*\(?\s*(deps|deps-dev|dependencies)\s*\)?\s*:/i,
  /\b(bump|bumps|bumped|upgrade|upgrades|update|updates)\b[^\n]*\b(dependency|dependencies|deps|devdependencies)\b/i,
  /\bbump(s|ed)?\b[^\n]*\bfrom\s+v?\d[\w.-]*\s+to\s+v?\d/i,
  /\b(dependabot|renovate)\b/i,
  /^\s*(chore\s*\(\s*release\s*\)|release|releasing|prepare(s)? release|version bump|bump version)\b/i,
  /^\s*v?\d+\.\d+(\.\d+)?([-.\w]*)?\s*$/im,
  /^\s*(style|format|fmt)\s*(\([^)]*\))?\s*:/i,
  /\b(prettier|gofmt|reformat(ted)?|formatting|lint fixes|fix lint|linting)\b/i,
];

export const countWords = (text: string): number => (text.match(/[\p{L}\p{N}_]+/gu) ?? []).length;

/** The task text of a commit message, or null when the commit is not a task. */
export function cleanMessage(message: string): string | null {
  const subject = message.split('\n', 1)[0] ?? '';
  if (NOT_A_TASK.some((re) => re.test(subject))) return null;
  const text = message
    .replace(TRAILER, '')
    .replace(THIS_REVERTS, '')
    .replace(URL, '')
    .replace(EMAIL, '')
    .replace(CI_MARK, '')
    .replace(MENTION, '$1')
    .replace(ISSUE_REF, '')
    .replace(/\(\s*\)/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n')
    .slice(0, MAX_TASK_CHARS)
    .trim();
  return countWords(text) >= MIN_TASK_WORDS ? text : null;
}
