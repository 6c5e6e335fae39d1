/**
 * The first `size` bytes of an open file, read from its start into a buffer of that size (fewer
 * when the file shrank since its size was taken). For callers that have just stat-ed the file:
 * `readFileSync(fd)` would stat it a second time to learn its size. The buffer is its own
 * (never Node's shared pool), so it can be transferred to another thread.
 */
import { readSync } from 'node:fs';

export function readUpTo(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return at < size ? bytes.subarray(0, at) : bytes;
}
