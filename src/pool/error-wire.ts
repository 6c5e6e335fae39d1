/**
 * An error as data, so it crosses a thread boundary whole. Structured clone (Piscina's results,
 * Comlink's messages) keeps only an error's message and stack and turns its class into a bare
 * Error, losing the code the caller answers by. On the way out a GardenerError becomes
 * `{gardener: fields}` (its own fields, name, message and stack; not its cause, which may not
 * be cloneable and whose story the message already tells); on the way in it becomes an
 * instance of the class its name gives again (GardenerError for a name this side lacks). Any
 * other error that carries a string `code` (a system error: ENOENT, EACCES…) travels the same
 * way, marked `plain`, and comes back as an Error with its code, errno, syscall and path.
 */
import * as errors from '../errors.js';

export interface ErrorWire {
  gardener: Record<string, unknown>;
  /** Not a GardenerError: an Error with a code, rebuilt as an Error. */
  plain?: true;
}

/** Whether an error goes as data: a GardenerError, or any Error with a string `code`. */
export function isWireable(err: unknown): err is Error {
  return err instanceof errors.GardenerError || (err instanceof Error && typeof (err as { code?: unknown }).code === 'string');
}

export function errorToWire(err: Error): ErrorWire {
  const fields: Record<string, unknown> = { ...err, name: err.name, message: err.message, stack: err.stack };
  delete fields.cause;
  if (err instanceof errors.GardenerError) return { gardener: fields };
  // Another module's error may hold anything: only plain values go (a handle would fail the clone).
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'function' || (typeof v === 'object' && v !== null)) delete fields[k];
  return { gardener: fields, plain: true };
}

export function isErrorWire(value: unknown): value is ErrorWire {
  return typeof value === 'object' && value !== null && typeof (value as ErrorWire).gardener === 'object' && (value as ErrorWire).gardener !== null;
}

export function errorFromWire(wire: ErrorWire): Error {
  const fields = wire.gardener;
  if (wire.plain) return Object.assign(new Error(String(fields.message)), fields);
  const Class = (errors as Record<string, unknown>)[String(fields.name)];
  const proto = typeof Class === 'function' && Class.prototype instanceof errors.GardenerError
    ? Class.prototype : errors.GardenerError.prototype;
  return Object.assign(Object.create(proto) as errors.GardenerError, fields);
}

/** A pool task function whose GardenerErrors (and coded errors) leave the thread as ErrorWire (WorkerPool rebuilds them). */
export function throwsWhole<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      if (isWireable(err)) throw errorToWire(err);
      throw err;
    }
  };
}
