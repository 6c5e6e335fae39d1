export { decodeUntrustedJson, exceededJsonBound, nestsDeeperThan, MAX_JSON_DEPTH, MAX_JSON_VALUES, JSONRPC_PARSE_ERROR, JSONRPC_INVALID_REQUEST, type DecodedJson } from './untrusted-json.js';
export { LineFramer, MAX_LINE_BYTES, refusalOf, type Frame, type LineFramerOptions } from './line-framer.js';
export { findRequestId, RequestIdScanner, MAX_ID_BYTES, type RequestId } from './request-id.js';
export { peekEnvelope, isRequestId, type Envelope } from './envelope.js';
