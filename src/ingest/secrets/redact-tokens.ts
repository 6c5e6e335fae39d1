/**
 * Redaction of well-known token formats (token-patterns.ts) from a text before it is indexed.
 *
 * A secret is overwritten in place by a fixed marker, `REDACTED` followed by `*` up to the
 * secret's length, so that what the index and every line number see stays where it was: line
 * breaks inside a secret (a PEM body) are kept, and each character is replaced by as many
 * ASCII characters as it had UTF-8 bytes, so the text's byte length does not change either.
 * The full-text tokenizer reads the marker as the one word `redacted` (`*` is a separator), so
 * no part of a secret is a word of the index.
 *
 * Cost: one pre-check over the text looks for every pattern's anchors (anchor-probe.ts); most
 * source files hold none and pay only that. Patterns run only when one of their own anchors is there.
 */
import { TOKEN_PATTERNS, type TokenPattern } from './token-patterns.js';
import { anchorProbe } from './anchor-probe.js';

/** What a redacted secret starts with; the rest of its length is MARKER_FILL. */
export const REDACTION_MARKER = 'REDACTED';
const MARKER_FILL = '*';

/** Which patterns' anchors a text holds: the pre-check (anchor-probe.ts). */
const probeAnchors = anchorProbe(TOKEN_PATTERNS);
/** Each pattern compiled once more with match indices (`d`), to place its secret group. */
const WITH_INDICES = new Map<TokenPattern, RegExp>(TOKEN_PATTERNS.map((p) => [p, new RegExp(p.regex.source, `${p.regex.flags.replace('d', '')}d`)]));

/** The text with every recognised token replaced by the marker (the same string when none). */
export function redactTokens(text: string): string {
  const anchored = probeAnchors(text);
  if (anchored === null) return text;
  const ranges: [number, number][] = [];
  for (let k = 0; k < TOKEN_PATTERNS.length; k++) if (anchored[k]) collect(TOKEN_PATTERNS[k]!, text, ranges);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  let i = 0;
  while (i < ranges.length) {
    let [start, end] = ranges[i]!;
    // Overlapping or touching secrets become one span (one marker).
    for (i++; i < ranges.length && ranges[i]![0] <= end; i++) end = Math.max(end, ranges[i]![1]);
    if (start < at) start = at;
    out += text.slice(at, start) + mask(text, start, end);
    at = end;
  }
  return out + text.slice(at);
}

function collect(pattern: TokenPattern, text: string, ranges: [number, number][]): void {
  for (const m of text.matchAll(WITH_INDICES.get(pattern)!)) {
    const span = m.indices![1] ?? m.indices![0]!;
    const secret = text.slice(span[0], span[1]);
    if (secret.length === 0 || (pattern.accept && !pattern.accept(secret))) continue;
    ranges.push([span[0], span[1]]);
  }
}

/** The marker for text[start, end): same line breaks, same UTF-8 length. */
function mask(text: string, start: number, end: number): string {
  let out = '';
  // A secret shorter than the marker is all fill: half a marker would be a word of its own.
  let written = end - start < REDACTION_MARKER.length ? REDACTION_MARKER.length : 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) {
      out += text[i];
      continue;
    }
    // UTF-8 bytes of this UTF-16 unit: a surrogate pair is 4 bytes over 2 units.
    const width = c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
    for (let k = 0; k < width; k++, written++) out += written < REDACTION_MARKER.length ? REDACTION_MARKER[written] : MARKER_FILL;
  }
  return out;
}
