export { Session, FIRST_LIST_WAIT_MS, type SessionOptions } from './session.js';
