export { decodeUntrustedJson, nestsDeeperThan, MAX_JSON_DEPTH, JSONRPC_PARSE_ERROR, JSONRPC_INVALID_REQUEST, type DecodedJson } from './untrusted-json.js';
