/**
 * The page's live brains: server-sent events. While at least one page listens, the owner looks
 * at its brains list every BRAINS_SAMPLE_MS (the list is read from each open brain's read
 * connection: a COUNT on the backlog, no write, no git) and pushes it only when it changed, so a
 * burst's backlog rising and draining reaches the page within a sample of the owner knowing it.
 * With no page open there is no timer at all. The page itself never polls.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How often the list is compared while a page listens, in ms: well inside the 1 s a person notices. */
export const BRAINS_SAMPLE_MS = 200;
/** A comment line that keeps proxies and the browser from calling the stream dead, in ms. */
export const PAGE_KEEP_ALIVE_MS = 15_000;
/** Event streams open at once; past it the oldest is ended (a page reconnects by itself). */
export const MAX_PAGE_STREAMS = 32;

export interface BrainsStreamOptions {
  /** @default BRAINS_SAMPLE_MS */
  sampleMs?: number;
}

interface Listener {
  res: ServerResponse;
  brains: () => unknown;
}

export class BrainsStream {
  #listeners = new Set<Listener>();
  #timer: NodeJS.Timeout | null = null;
  #keepAlive: NodeJS.Timeout | null = null;
  #last = '';
  #sampleMs: number;

  constructor(options: BrainsStreamOptions = {}) {
    this.#sampleMs = options.sampleMs ?? BRAINS_SAMPLE_MS;
  }

  add(req: IncomingMessage, res: ServerResponse, seam: { brains(): unknown }): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-content-type-options': 'nosniff' });
    const me: Listener = { res, brains: () => seam.brains() };
    while (this.#listeners.size >= MAX_PAGE_STREAMS) {
      const oldest = this.#listeners.values().next().value!;
      this.#listeners.delete(oldest);
      oldest.res.end();
    }
    this.#listeners.add(me);
    const text = JSON.stringify({ brains: me.brains(), at: new Date().toISOString() });
    res.write(`retry: 2000\nevent: brains\ndata: ${text}\n\n`);
    req.on('close', () => {
      this.#listeners.delete(me);
      if (this.#listeners.size === 0) this.#stop();
    });
    this.#start();
  }

  #start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#sample(), this.#sampleMs).unref();
    this.#keepAlive = setInterval(() => {
      for (const l of this.#listeners) l.res.write(': keep-alive\n\n');
    }, PAGE_KEEP_ALIVE_MS).unref();
  }

  #stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#timer = this.#keepAlive = null;
    this.#last = '';
  }

  #sample(): void {
    const first = this.#listeners.values().next().value;
    if (!first) return;
    let brains: unknown;
    try {
      brains = first.brains();
    } catch {
      return;
    }
    const key = JSON.stringify(brains);
    if (key === this.#last) return;
    this.#last = key;
    const text = JSON.stringify({ brains, at: new Date().toISOString() });
    for (const l of this.#listeners) l.res.write(`event: brains\ndata: ${text}\n\n`);
  }

  close(): void {
    for (const l of this.#listeners) l.res.end();
    this.#listeners.clear();
    this.#stop();
  }
}
