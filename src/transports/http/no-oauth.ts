/**
 * Gardener's HTTP takes a bearer token (`gardener token`), not OAuth. Hosts that get a 401
 * look for OAuth first (RFC 9728 protected-resource metadata, RFC 8414 authorization-server
 * metadata, OpenID discovery); a missing metadata document is how a server says it does not
 * use OAuth (the MCP authorization spec makes it optional), so these answer 404 without a
 * token, with a message that says what to send. Dynamic registration (`/register`) stays
 * behind the token: a host that tries it anyway then ends on a 401 (its message says
 * "401"), not on a 404 that reads like a wrong URL (seen with Claude Code 2.1).
 */

/** Paths a host probes for OAuth, wherever it puts them (`/.well-known/…`, `/mcp/.well-known/…`). */
export function isOAuthDiscovery(path: string): boolean {
  return path.includes('/.well-known/');
}

export const NO_OAUTH_MESSAGE =
  'Gardener takes a bearer token, not OAuth: send "Authorization: Bearer <token>" with the token `gardener token` prints (docs/hosts.md)';
