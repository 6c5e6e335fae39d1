/**
 * The line a text hit points at: the first line of a mapped file that holds a query word. The
 * full-text index is contentless, so the line is read from the file itself (a bounded read of a
 * few returned files, never a walk).
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { joinFsPath } from '../paths/path-bytes.js';
import { isSecretFile, redactTokens } from '../ingest/index.js';

/** How much of a file is read to find a text hit's line, in bytes. */
const LINE_SCAN_BYTES = 256 * 1024;

/**
 * One read buffer for every call (the reads are synchronous and decoded at once, so no call
 * sees another's bytes). A fresh 256 KB buffer per hit, up to 20 per `seek`, was 5 MB of
 * external memory a query: V8 answered it with a full mark-compact every ~17 queries (57 in
 * 1000 queries on the bench's brain, pauses of 3–28 ms on a loaded machine; 1 with this buffer).
 */
let scanBuffer: Buffer | undefined;

/**
 * The first line of the file on disk that contains a term (1 when none, or unreadable). The
 * file is read as the index saw it (docs/secrets.md): a secret-bearing file is always line 1 and
 * tokens are redacted first, so a line number never tells where a secret word sits.
 */
export function lineOf(root: string, path: string, lowered: string[]): number {
  if (isSecretFile(path)) return 1;
  let text: string;
  try {
    const fd = openSync(joinFsPath(root, path), constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const buf = (scanBuffer ??= Buffer.allocUnsafeSlow(LINE_SCAN_BYTES));
      text = redactTokens(buf.toString('utf8', 0, readSync(fd, buf, 0, LINE_SCAN_BYTES, 0))).toLowerCase();
    } finally {
      closeSync(fd);
    }
  } catch {
    return 1;
  }
  let best = -1;
  for (const t of lowered) {
    const at = text.indexOf(t);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  if (best < 0) return 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < best; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
