/**
 * Where a text holds a secret, and of which kind: the question a team note asks before it is
 * written into the repository (src/store/team-notes.ts). It runs the same token patterns the
 * map redacts with (token-patterns.ts), so "what the map would hide" and "what may never be
 * shared" are one rule; it names the first one found (its pattern id and line), never the secret.
 */
import { TOKEN_PATTERNS } from './token-patterns.js';
import { redactTokens } from './redact-tokens.js';

export interface SecretFound {
  /** The token pattern's id (token-patterns.ts), e.g. `github-token`. */
  kind: string;
  /** 1-based line of the text where it starts. */
  line: number;
}

/** The first secret in `text` (by position), or null when the map would redact nothing. */
export function findSecret(text: string): SecretFound | null {
  const redacted = redactTokens(text);
  if (redacted === text) return null;
  let at = 0;
  while (at < text.length && text[at] === redacted[at]) at++;
  const line = text.slice(0, at).split('\n').length;
  let kind = 'token';
  let best = Infinity;
  for (const p of TOKEN_PATTERNS) {
    const re = new RegExp(p.regex.source, p.regex.flags.includes('g') ? p.regex.flags : `${p.regex.flags}g`);
    for (const m of text.matchAll(re)) {
      if (m.index !== undefined && m.index <= at && m.index + m[0].length > at && m.index < best) {
        best = m.index;
        kind = p.id;
      }
      if (m.index !== undefined && m.index > at) break;
    }
  }
  return { kind, line };
}
