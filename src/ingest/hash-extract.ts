/**
 * Hash+extract for one batch of backlog items: read each file once, hash it with xxh64
 * (xxhash-wasm), and when the content changed, take its language, line count, definitions
 * and imports. Runs in a pool worker; it touches only the files it is given (and each root's
 * `.gardenerignore`). What of a text is indexed is src/ingest/secrets/'s decision.
 *
 * A file whose hash matches the map only refreshes its stat row. A file that vanished is a
 * deletion. A symlink is never followed (it leaves the map like a deletion). A file that
 * cannot be read (EACCES, EISDIR…) is reported as failed and the batch goes on. Binary files
 * and files over `maxIndexBytes` are hashed but their text is not indexed.
 *
 * The file system calls are synchronous on purpose: this runs on a dedicated pool thread, and
 * four async round trips through libuv's shared thread pool per file cost more than the reads.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import xxhash from 'xxhash-wasm';
import { joinFsPath } from '../paths/path-bytes.js';
import { languageOf, languageOfFile } from './language.js';
import { extractFile } from './extraction.js';
import { indexableText, keptOutOfMap } from './secrets/index.js';
import { setReferencesKept } from './extract/reference-sink.js';
import { extractionFields } from './extraction-fields.js';
import { manifestJson } from './manifest.js';
import { readUpTo } from '../detect/read-up-to.js';
import type { BacklogItem, FileResult, HashExtractTask } from './types.js';

/** How far into a file we look for a NUL byte to call it binary (git uses the same 8000). */
const BINARY_SNIFF_BYTES = 8000;

/** Chunk size for streaming the hash of an oversized file, so memory stays flat. */
const STREAM_CHUNK_BYTES = 1 << 20;

let hasherPromise: ReturnType<typeof xxhash> | undefined;
function hasher() {
  hasherPromise ??= xxhash();
  return hasherPromise;
}

/**
 * `beforeFile` runs before each file: the pool thread waits there while the main thread answers
 * a recall call (src/pool/request-gate.ts, reached through the worker entry; ingest stays a leaf).
 */
export async function hashAndExtract(task: HashExtractTask, beforeFile: () => void = () => {}): Promise<FileResult[]> {
  const api = await hasher();
  setReferencesKept(task.references !== false);
  const out: FileResult[] = [];
  // A path its root's .gardenerignore (or the noise policy) keeps out leaves the map like a deleted file.
  const keptOut = keptOutOfMap(task.roots, task.notesDirs);
  for (const item of task.items) {
    beforeFile();
    out.push(keptOut(item.rootId, item.path)
      ? { id: item.id, rootId: item.rootId, path: item.path, status: 'deleted' }
      : await processOne(task.roots[item.rootId]!, item, task.maxIndexBytes, api));
  }
  return out;
}

type Hasher = Awaited<ReturnType<typeof xxhash>>;
const hex = (h: bigint) => h.toString(16).padStart(16, '0');

async function processOne(
  root: string,
  item: BacklogItem,
  maxIndexBytes: number,
  api: Hasher,
): Promise<FileResult> {
  const base = { id: item.id, rootId: item.rootId, path: item.path };
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink fails with ELOOP instead of being followed out of the root.
    // O_NONBLOCK: a FIFO swapped in since detection would block the open until a writer came
    // (a pool thread lost for good); with it the open returns and fstat calls it no file.
    // Reads of a regular file ignore the flag.
    fd = openSync(joinFsPath(root, item.path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { ...base, status: 'deleted' };
    return { ...base, status: 'failed', code, message: (err as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ...base, status: 'deleted' };
    if (st.size > maxIndexBytes) {
      // Oversized: hashed in chunks, never held whole, never indexed or extracted.
      const h = api.create64();
      const chunk = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
      for (;;) {
        const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        h.update(chunk.subarray(0, bytesRead));
      }
      const hash = hex(h.digest());
      if (hash === item.knownHash) return { ...base, status: 'unchanged', size: st.size, mtimeMs: st.mtimeMs };
      return { ...base, status: 'ingested', size: st.size, mtimeMs: st.mtimeMs, hash, language: languageOf(item.path), lines: 0, text: null, ...extractionFields([], []) };
    }
    const bytes = readWhole(fd, st.size);
    const hash = hex(api.h64Raw(bytes));
    if (hash === item.knownHash) return { ...base, status: 'unchanged', size: st.size, mtimeMs: st.mtimeMs };
    const binary = bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
    // Secret-bearing files keep no text; token formats are redacted (src/ingest/secrets/).
    const indexed = binary ? null : indexableText(item.path, bytes);
    const text = indexed === null ? null : indexed.text;
    // The language by content needs the text; a secret-bearing file is labelled by its name.
    const language = binary ? null : text === null ? languageOf(item.path) : languageOfFile(item.path, text);
    // Extraction sees only the redacted text. A grammar that fails or a parse past its bounds
    // still leaves the text indexed, with a note.
    const { extraction, note } = text === null ? { extraction: { symbols: [], imports: [] }, note: undefined } : await extractFile(language, text, indexed!.bytes.length);
    const { symbols, imports, references } = extraction;
    const manifest = text === null ? null : manifestJson(item.path, text);
    return {
      ...base,
      status: 'ingested',
      size: st.size,
      mtimeMs: st.mtimeMs,
      hash,
      language,
      lines: text === null ? 0 : countLines(text),
      text: indexed === null ? null : ownBuffer(indexed.bytes),
      ...extractionFields(symbols, imports, references),
      ...(note === undefined ? {} : { note }),
      ...(manifest === null ? {} : { manifest }),
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
    return { ...base, status: 'failed', code, message: (err as Error).message };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's bytes, read into a buffer of the size `fstat` just gave: `readFileSync(fd)` would
 * stat the file a second time to learn it. Like readFileSync, a file that grew since is read up
 * to that size, one that shrank up to its end; a size of 0 (a file that says nothing of its
 * length) is read to its end.
 */
function readWhole(fd: number, size: number): Buffer {
  return size === 0 ? readFileSync(fd) : readUpTo(fd, size);
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** The bytes in an ArrayBuffer of their own, so it can be transferred without taking others along. */
function ownBuffer(bytes: Buffer): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  return new Uint8Array(bytes);
}
