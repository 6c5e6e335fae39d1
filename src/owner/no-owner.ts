/**
 * How a client knows there is no owner without loading the dial (sockets, crypto, the proof):
 * every owner makes `<home>/token`, so a home without one has nobody to dial, and the dial's
 * "nobody answered" is said the same way either way. Imports node:path only: `gardener mcp`
 * asks this before its first frame.
 */
import { join } from 'node:path';

/** Nobody answered (as opposed to a peer that is not a verified owner). */
export const NO_ANSWER = 'no owner answered';

/** Where a home keeps the owner's token. */
export const tokenFileOf = (home: string): string => join(home, 'token');
