/**
 * What of a file's text may be indexed: nothing for a secret-bearing file, and the text with
 * well-known token formats redacted for every other. Runs in the hash+extract worker, on the
 * bytes it just read, before definitions and imports are taken, so neither the full-text
 * index nor the extracted names ever see a secret. docs/secrets.md is the user-facing list.
 */
import { isSecretFile } from './secret-files.js';
import { redactTokens } from './redact-tokens.js';

export { isSecretFile, secretFileReason, SECRET_FILE_RULES } from './secret-files.js';
export { redactTokens, REDACTION_MARKER } from './redact-tokens.js';
export { TOKEN_PATTERNS, type TokenPattern } from './token-patterns.js';

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
