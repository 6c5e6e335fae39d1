/** Splits a byte stream into complete lines (without the newline); a partial line waits. */
export class LineSplitter {
  #parts: Buffer[] = [];

  /** The complete lines in `chunk` (with what was left over before it). */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      lines.push(this.#parts.length ? Buffer.concat([...this.#parts, piece]) : piece);
      this.#parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) this.#parts.push(chunk.subarray(start));
    return lines;
  }
}

/** The `id` and `method` of a JSON-RPC line, without validating the rest; null for garbage. */
export function peekMessage(line: Buffer): { id?: string | number; method?: string; params?: { requestId?: string | number } } | null {
  try {
    const m = JSON.parse(line.toString('utf8')) as unknown;
    return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as { id?: string | number; method?: string }) : null;
  } catch {
    return null;
  }
}
