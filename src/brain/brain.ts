/**
 * One open brain: its store file, the writer worker that owns its writes, and a read-only
 * connection for recall (WAL lets it read beside the writer). The pool is shared by every
 * brain of the process and passed in.
 */
import { mkdirSync } from 'node:fs';
import { dirname, relative, isAbsolute, sep } from 'node:path';
import { StoreWriterClient, type StoreWriterApi, type WorkerPool } from '../pool/index.js';
import { openStore, type Database } from '../store/index.js';

export class Brain {
  readonly id: string;
  readonly file: string;
  readonly roots: readonly string[];
  readonly pool: WorkerPool;
  #writer: StoreWriterClient | undefined;
  #reader: Database | undefined;
  #retired = false;
  #writerIdleMs: number | undefined;
  #onWriterParked: (() => void) | undefined;

  /**
   * @param options.writerIdleMs quiet before the writer's thread ends (store-writer-client.ts WRITER_IDLE_MS)
   * @param options.onWriterParked told when it has
   */
  constructor(id: string, file: string, roots: readonly string[], pool: WorkerPool, options: { writerIdleMs?: number; onWriterParked?: () => void } = {}) {
    this.id = id;
    this.file = file;
    this.roots = roots;
    this.pool = pool;
    this.#writerIdleMs = options.writerIdleMs;
    this.#onWriterParked = options.onWriterParked;
  }

  /**
   * True once the process's LRU has let this brain go: whoever kept a reference resolves
   * the folder again (and gets the brain reopened) instead of reusing this one.
   */
  get retired(): boolean {
    return this.#retired;
  }

  retire(): void {
    this.#retired = true;
  }

  /** Creates the store folder and file (schema migrated) if needed. */
  async create(): Promise<void> {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    await this.writerClient().ready();
  }

  get writer(): StoreWriterApi {
    return this.writerClient().api;
  }

  writerClient(): StoreWriterClient {
    this.#writer ??= new StoreWriterClient(this.file, { idleMs: this.#writerIdleMs, onParked: this.#onWriterParked });
    return this.#writer;
  }

  /** Whether its writer thread runs now (a status that asks every writer must not wake a parked one). */
  get writerRunning(): boolean {
    return this.#writer?.running ?? false;
  }

  /** The read-only connection for recall. Opens on first use; the store must exist. */
  get reader(): Database {
    this.#reader ??= openStore(this.file, { readonly: true });
    return this.#reader;
  }

  /** Root-relative folder prefixes detection must skip: the brain's own store when inside a root. */
  skipFor(root: string): string[] {
    const rel = relative(root, dirname(dirname(this.file)));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return rel === '' ? ['brains'] : [];
    return [rel.split(sep).join('/')];
  }

  async close(): Promise<void> {
    this.#reader?.close();
    this.#reader = undefined;
    const w = this.#writer;
    this.#writer = undefined;
    await w?.close();
  }
}
