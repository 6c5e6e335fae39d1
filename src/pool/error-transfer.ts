/**
 * Keeps a GardenerError whole across the store-writer's Comlink boundary. Comlink sends a
 * thrown Error as message, name and stack only, so a store that could not be opened in the
 * writer reached the CLI as an "unexpected error" without its code or exit code. This wraps
 * Comlink's own "throw" handler: a GardenerError travels with its code, exit code and fields
 * (file, errno, module...) and comes back as an instance of the same class; anything else
 * goes through Comlink unchanged. Installed by importing this module, in both threads.
 */
import * as Comlink from 'comlink';
import * as errors from '../errors.js';

interface Thrown {
  value: unknown;
}
interface Wire {
  gardener?: Record<string, unknown>;
}

const base = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<Thrown, unknown> | undefined;
if (base && !(base as { gardener?: true }).gardener) {
  const handler: Comlink.TransferHandler<Thrown, unknown> & { gardener: true } = {
    gardener: true,
    canHandle: (value): value is Thrown => base.canHandle(value),
    serialize(thrown) {
      const err = thrown.value;
      if (!(err instanceof errors.GardenerError)) return base.serialize(thrown);
      const fields: Record<string, unknown> = { ...err, name: err.name, message: err.message, stack: err.stack };
      delete fields.cause; // may not be cloneable; the message already tells the story
      return [{ gardener: fields } satisfies Wire, []];
    },
    deserialize(wire) {
      const fields = (wire as Wire).gardener;
      if (!fields) return base.deserialize(wire);
      const Class = (errors as Record<string, unknown>)[String(fields.name)];
      const proto = typeof Class === 'function' && Class.prototype instanceof errors.GardenerError
        ? Class.prototype : errors.GardenerError.prototype;
      throw Object.assign(Object.create(proto) as errors.GardenerError, fields);
    },
  };
  Comlink.transferHandlers.set('throw', handler);
}
