export { decodeUntrustedJson, exceededJsonBound, nestsDeeperThan, MAX_JSON_DEPTH, MAX_JSON_VALUES, JSONRPC_PARSE_ERROR, JSONRPC_INVALID_REQUEST, type DecodedJson } from './untrusted-json.js';
