/**
 * Comlink's Node adapter, typed. The package ships it as UMD (CommonJS at run time), whose
 * default import is the function itself, while its typings describe an ES module with a
 * `default` member; this file states the run-time truth once.
 */
import adapter from 'comlink/dist/umd/node-adapter.js';
import type { Endpoint } from 'comlink';

import type { MessagePort, Worker } from 'node:worker_threads';
// Every Comlink endpoint keeps GardenerErrors whole (their code and exit code) across threads.
import './error-transfer.js';

type NodeEndpointFn = (nep: MessagePort | Worker) => Endpoint;

export const nodeEndpoint = adapter as unknown as NodeEndpointFn;
