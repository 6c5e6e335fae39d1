/**
 * A GardenerError as data, so it crosses a thread boundary whole. Structured clone (Piscina's
 * results, Comlink's messages) keeps only an error's message and stack and turns its class into
 * a bare Error, losing the code and exit code the caller answers by. On the way out an error
 * becomes `{gardener: fields}` (its own fields, name, message and stack; not its cause, which
 * may not be cloneable and whose story the message already tells); on the way in it becomes
 * an instance of the class its name gives again (GardenerError for a name this side lacks).
 */
import * as errors from '../errors.js';

export interface ErrorWire {
  gardener: Record<string, unknown>;
}

export function errorToWire(err: errors.GardenerError): ErrorWire {
  const fields: Record<string, unknown> = { ...err, name: err.name, message: err.message, stack: err.stack };
  delete fields.cause;
  return { gardener: fields };
}

export function isErrorWire(value: unknown): value is ErrorWire {
  return typeof value === 'object' && value !== null && typeof (value as ErrorWire).gardener === 'object' && (value as ErrorWire).gardener !== null;
}

export function errorFromWire(wire: ErrorWire): errors.GardenerError {
  const fields = wire.gardener;
  const Class = (errors as Record<string, unknown>)[String(fields.name)];
  const proto = typeof Class === 'function' && Class.prototype instanceof errors.GardenerError
    ? Class.prototype : errors.GardenerError.prototype;
  return Object.assign(Object.create(proto) as errors.GardenerError, fields);
}

/** A pool task function whose GardenerErrors leave the thread as ErrorWire (WorkerPool rebuilds them). */
export function throwsWhole<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      if (err instanceof errors.GardenerError) throw errorToWire(err);
      throw err;
    }
  };
}
