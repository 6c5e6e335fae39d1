/**
 * The newline-delimited JSON-RPC transport of an MCP session, over any pair of streams: stdio
 * in-process (`gardener mcp`) and each connection on the owner's socket. Every line that is
 * not a message gets an answer instead of silence or a dead server.
 *
 * The SDK's StdioServerTransport drops a line that is not JSON with no reply (the host waits
 * forever for its answer), and closes itself for good on a line over 10 MiB: the process then
 * stops reading and exits. Here the lines are cut by the one framer (src/wire/line-framer.ts:
 * UTF-8 checked, nesting bounded, MAX_LINE_BYTES, the same answers on every transport), and
 * JSON that is not a JSON-RPC message gets -32600 Invalid Request, id null. A refused line
 * never ends the session: the next line is read as usual.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPC_INVALID_REQUEST, LineFramer, refusalOf, type Frame } from '../wire/index.js';

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #input: Readable;
  #output: Writable;
  #framer = new LineFramer((frame) => this.#onFrame(frame));
  #closed = false;

  constructor(input: Readable, output: Writable) {
    this.#input = input;
    this.#output = output;
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      // A peer that is gone cannot drain: never leave the sender waiting on it.
      if (this.#output.destroyed || this.#output.writableEnded) return resolve();
      if (this.#output.write(JSON.stringify(message) + '\n')) resolve();
      else {
        const done = () => {
          this.#output.off('drain', done).off('close', done);
          resolve();
        };
        this.#output.on('drain', done).on('close', done);
      }
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onError);
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.onclose?.();
  }

  #onError = (err: Error): void => {
    this.onerror?.(err);
  };

  #onData = (chunk: Buffer | string): void => {
    this.#framer.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  #onFrame(frame: Frame): void {
    if (!frame.ok) return this.#refuse(refusalOf(frame));
    const parsed = JSONRPCMessageSchema.safeParse(frame.value);
    if (!parsed.success) {
      return this.#refuse({
        jsonrpc: '2.0',
        id: null,
        error: { code: JSONRPC_INVALID_REQUEST, message: 'Invalid Request: not a JSON-RPC 2.0 message (one object per line, with "jsonrpc":"2.0" and a string "method")' },
      });
    }
    this.onmessage?.(parsed.data);
  }

  #refuse(answer: { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } }): void {
    this.onerror?.(new Error(answer.error.message));
    void this.send(answer as unknown as JSONRPCMessage);
  }
}
