/**
 * What of a file's text may be indexed: nothing for a secret-bearing file, and the text with
 * well-known token formats redacted for every other. Runs in the hash+extract worker, on the
 * bytes it just read, before definitions and imports are taken, so neither the full-text
 * index nor the extracted names ever see a secret. docs/secrets.md is the user-facing list.
 */
import { gardenerIgnoreOf, isSkippedPath } from '../../detect/index.js';
import { isSecretFile } from './secret-files.js';
import { redactTokens } from './redact-tokens.js';

export { isSecretFile, secretFileReason, SECRET_FILE_RULES } from './secret-files.js';
export { redactTokens, REDACTION_MARKER } from './redact-tokens.js';
export { TOKEN_PATTERNS, type RunAnchor, type TokenPattern } from './token-patterns.js';
export { anchorProbe, type AnchorProbe } from './anchor-probe.js';
export { findSecret, type SecretFound } from './find-secret.js';

export interface IndexableText {
  /** The text to index and extract from. */
  text: string;
  /** Its UTF-8 bytes: the file's own bytes when nothing was redacted. */
  bytes: Buffer;
}

/** The text of a (non-binary) file as it may be indexed, or null when none of it may. */
export function indexableText(path: string, bytes: Buffer): IndexableText | null {
  if (isSecretFile(path)) return null;
  const text = bytes.toString('utf8');
  const redacted = redactTokens(text);
  return redacted === text ? { text, bytes } : { text: redacted, bytes: Buffer.from(redacted, 'utf8') };
}

/**
 * A predicate for one batch: is this path kept out of the map by its root's `.gardenerignore`,
 * or (when the batch names the root's notes folder) by the noise policy? Detection already
 * leaves such paths out; this catches a path queued before its rule was written, or queued by
 * an inventory for leaving (a note file of a notes folder the root no longer uses, inside
 * `.gardener`), so it leaves instead of being read again. The rules are read once per root
 * per batch (a stat when they did not change).
 */
export function keptOutOfMap(roots: Record<number, string>, notesDirs?: Record<number, string>): (rootId: number, path: string) => boolean {
  const byRoot = new Map<number, (path: string) => boolean>();
  return (rootId, path) => {
    let ignores = byRoot.get(rootId);
    if (ignores === undefined) {
      const rules = gardenerIgnoreOf(roots[rootId]!);
      const notesDir = notesDirs?.[rootId];
      ignores = notesDir === undefined ? (p) => rules.ignores(p) : (p) => rules.ignores(p) || isSkippedPath(p, [], notesDir);
      byRoot.set(rootId, ignores);
    }
    return ignores(path);
  };
}
