/**
 * Refusals across the store writer's thread boundary. Comlink carries a thrown error's message
 * but not its class or code, so a skeleton write that refuses (a stale version, no candidate,
 * a bad edit) answers with a plain `refused` record, and the main thread throws the same
 * GardenerError again: the tool's caller sees the stable code, not a generic failure.
 */
import { GardenerError } from '../errors.js';

export interface Refusal {
  refused: { code: string; message: string; exitCode: number };
}

/** In the worker: runs `fn`, turning a GardenerError into a Refusal (anything else still throws). */
export function refusing<T>(fn: () => T): T | Refusal {
  try {
    return fn();
  } catch (err) {
    if (err instanceof GardenerError) return { refused: { code: err.code, message: err.message, exitCode: err.exitCode } };
    throw err;
  }
}

/** On the main thread: the value, or the refusal thrown again as a GardenerError. */
export function unrefused<T>(value: T | Refusal): T {
  if (value !== null && typeof value === 'object' && 'refused' in value) {
    const r = (value as Refusal).refused;
    throw new GardenerError(r.code, r.message, { exitCode: r.exitCode });
  }
  return value as T;
}
