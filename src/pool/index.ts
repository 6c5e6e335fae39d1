export { WorkerPool, DEFAULT_POOL_THREADS, POOL_TASK_TIMEOUT_MS, DETECT_TASK_TIMEOUT_MS, ABORT_ANSWER_MS, type WorkerPoolOptions } from './worker-pool.js';
export { StoreWriterClient, moved, STORE_CALL_TIMEOUT_MS, type StoreWriterApi, type StoreWriterClientOptions } from './store-writer-client.js';
