/**
 * Paths as bytes, kept exact.
 *
 * File names on Linux are bytes, not text. Git (`-z`) and `readdir({encoding: 'buffer'})`
 * hand them over as bytes; most are UTF-8, a few are not. A path is carried through Gardener
 * (messages, SQLite, results) as a string: valid UTF-8 decodes as itself, and each byte of an
 * invalid sequence becomes one code point in Supplementary Private Use Area-B
 * (U+10FF00 + byte). The mapping is reversible, so the exact bytes reach the file system again;
 * a real file name containing those code points is the one (vanishingly rare) collision.
 */
const ESCAPE_BASE = 0x10ff00;

/** Decodes path bytes into Gardener's string form (exact, reversible). */
export function decodePath(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      // ASCII fast path: collect a run.
      let j = i + 1;
      while (j < n && bytes[j]! < 0x80) j++;
      out += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, j)));
      i = j;
      continue;
    }
    const len = utf8SequenceLength(bytes, i);
    if (len === 0) {
      out += String.fromCodePoint(ESCAPE_BASE + b0);
      i += 1;
    } else {
      out += Buffer.from(bytes.buffer, bytes.byteOffset + i, len).toString('utf8');
      i += len;
    }
  }
  return out;
}

/** Encodes Gardener's string form back to the exact path bytes. */
export function encodePath(path: string): Buffer {
  if (!hasEscapes(path)) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const ch of path) {
    const cp = ch.codePointAt(0)!;
    if (cp >= ESCAPE_BASE && cp <= ESCAPE_BASE + 0xff) {
      if (run) parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([cp - ESCAPE_BASE]));
    } else {
      run += ch;
    }
  }
  if (run) parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** The argument to hand to `node:fs` for this path: a string when it is plain UTF-8, else bytes. */
export function toFsPath(path: string): string | Buffer {
  return hasEscapes(path) ? encodePath(path) : path;
}

/** Joins an absolute root and a root-relative path for `node:fs`, keeping exact bytes. */
export function joinFsPath(root: string, rel: string): string | Buffer {
  const joined = root.endsWith('/') ? root + rel : `${root}/${rel}`;
  return toFsPath(joined);
}

function hasEscapes(path: string): boolean {
  // U+10FFxx is encoded in UTF-16 as the surrogate pair \uDBFF\uDFxx.
  return path.includes('\uDBFF');
}

function utf8SequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i]!;
  const cont = (k: number) => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const b1 = b[i + 1]!;
    if (b0 === 0xe0 && b1 < 0xa0) return 0; // overlong
    if (b0 === 0xed && b1 >= 0xa0) return 0; // surrogates
    return 3;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const b1 = b[i + 1]!;
    if (b0 === 0xf0 && b1 < 0x90) return 0;
    if (b0 === 0xf4 && b1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}
