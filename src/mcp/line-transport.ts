/**
 * The stdio transport: one JSON-RPC message per line, and every line that is not one gets an
 * answer instead of silence or a dead server.
 *
 * The SDK's StdioServerTransport drops a line that is not JSON with no reply (the host waits
 * forever for its answer), and closes itself for good on a line over 10 MiB: the process then
 * stops reading and exits. Here, as JSON-RPC 2.0 says:
 *   - a line that is not UTF-8 or not JSON      → -32700 Parse error, id null
 *   - JSON that is not a JSON-RPC message         → -32600 Invalid Request, id null
 *   - a line over MAX_LINE_BYTES                  → -32600, id null; it is skipped as it
 *     streams in, never held whole, and the next line is read as usual
 * Blank lines are not messages and are ignored.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Longest line read, in bytes. No tool argument comes near it (a note is at most 16,000
 * characters, `scan` takes at most 10,000 paths), and a line is held whole while it arrives.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #stdin: Readable;
  #stdout: Writable;
  #chunks: Buffer[] = [];
  #bytes = 0;
  /** True while the rest of an oversized line is being skipped. */
  #skipping = false;
  #decoder = new TextDecoder('utf-8', { fatal: true });
  #closed = false;

  constructor(stdin: Readable, stdout: Writable) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.#stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#chunks = [];
    this.onclose?.();
  }

  #onError = (err: Error): void => {
    this.onerror?.(err);
  };

  #onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a)) {
      this.#take(buf.subarray(0, nl));
      this.#endLine();
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 0) this.#take(buf);
  };

  #take(part: Buffer): void {
    if (this.#skipping || part.length === 0) return;
    if (this.#bytes + part.length > MAX_LINE_BYTES) {
      this.#chunks = [];
      this.#bytes = 0;
      this.#skipping = true;
      return;
    }
    this.#chunks.push(part);
    this.#bytes += part.length;
  }

  #endLine(): void {
    if (this.#skipping) {
      this.#skipping = false;
      this.#refuse(INVALID_REQUEST, `Invalid Request: a line over ${MAX_LINE_BYTES} bytes was skipped`);
      return;
    }
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [];
    this.#bytes = 0;
    let text: string;
    try {
      text = this.#decoder.decode(bytes);
    } catch {
      this.#refuse(PARSE_ERROR, 'Parse error: the line is not valid UTF-8');
      return;
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      this.#refuse(PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.#refuse(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message (one object per line, with "jsonrpc":"2.0" and a string "method")');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #refuse(code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage);
  }
}
