export { WorkerPool, DEFAULT_POOL_THREADS, DETECT_TIMEOUT_MS, BATCH_TIMEOUT_MS, type WorkerPoolOptions } from './worker-pool.js';
export { StoreWriterClient, moved, STORE_CALL_TIMEOUT_MS, type StoreWriterApi, type StoreWriterClientOptions } from './store-writer-client.js';
