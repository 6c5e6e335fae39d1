/**
 * A GardenerError thrown by a prompt, resource or completion, as the JSON-RPC error MCP
 * expects: an unknown prompt or a bad argument is Invalid params (-32602), a resource that is
 * not there is the spec's Resource not found (-32002). The Gardener code rides in `data.code`.
 * Anything else is left for the SDK to answer as an internal error.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { GardenerError, InvalidArgumentError, ResourceNotFoundError, UnknownPromptError } from '../errors.js';

/** The MCP spec's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND_RPC = -32002;

export function asProtocolError(err: unknown): unknown {
  if (!(err instanceof GardenerError)) return err;
  const rpc = err instanceof ResourceNotFoundError
    ? RESOURCE_NOT_FOUND_RPC
    : err instanceof UnknownPromptError || err instanceof InvalidArgumentError
      ? ErrorCode.InvalidParams
      : ErrorCode.InternalError;
  return new McpError(rpc, err.message, { code: err.code });
}
