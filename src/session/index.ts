export { Session, FIRST_LIST_WAIT_MS, type SessionOptions, type SessionWatch } from './session.js';
