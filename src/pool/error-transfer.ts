/**
 * Keeps a GardenerError whole across the store-writer's Comlink boundary. Comlink sends a
 * thrown Error as message, name and stack only, so a store that could not be opened in the
 * writer reached the CLI as an "unexpected error" without its code or exit code. This wraps
 * Comlink's own "throw" handler: a GardenerError travels with its code, exit code and fields
 * (file, errno, module...) and comes back as an instance of the same class; another error
 * with a string code (a system error) keeps its code the same way; anything else goes through
 * Comlink unchanged (the wire form is error-wire.ts, which the pool uses too). Installed by
 * importing this module, in both threads.
 */
import * as Comlink from 'comlink';
import { errorFromWire, errorToWire, isErrorWire, isWireable } from './error-wire.js';

interface Thrown {
  value: unknown;
}
const base = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<Thrown, unknown> | undefined;
if (base && !(base as { gardener?: true }).gardener) {
  const handler: Comlink.TransferHandler<Thrown, unknown> & { gardener: true } = {
    gardener: true,
    canHandle: (value): value is Thrown => base.canHandle(value),
    serialize(thrown) {
      const err = thrown.value;
      if (!isWireable(err)) return base.serialize(thrown);
      return [errorToWire(err), []];
    },
    deserialize(wire) {
      if (!isErrorWire(wire)) return base.deserialize(wire);
      throw errorFromWire(wire);
    },
  };
  Comlink.transferHandlers.set('throw', handler);
}
