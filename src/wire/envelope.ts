/**
 * The envelope of a JSON-RPC message, read without validating the rest: what the proxy and the
 * in-process session's handover (transports/stdio/handover.ts) route lines by. A value that is
 * not an object reads as an empty envelope.
 *
 * This file is loaded by the `gardener mcp` proxy: it imports only its neighbours in wire/.
 */
import type { RequestId } from './request-id.js';

export interface Envelope {
  id?: unknown;
  method?: unknown;
  jsonrpc?: unknown;
  params?: { requestId?: unknown; uri?: unknown };
  result?: { capabilities?: Record<string, { listChanged?: unknown } | undefined> };
  error?: unknown;
}

export function peekEnvelope(value: unknown): Envelope {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Envelope) : {};
}

export const isRequestId = (id: unknown): id is RequestId => typeof id === 'string' || typeof id === 'number';
