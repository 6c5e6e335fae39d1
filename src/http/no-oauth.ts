/**
 * Gardener's HTTP takes a bearer token (`gardener token`), not OAuth. Hosts that get a 401
 * look for OAuth first (RFC 9728 protected-resource metadata, RFC 8414 authorization-server
 * metadata, OpenID discovery, dynamic client registration); when those answer 401 as well,
 * the host shows "HTTP 401" or "not logged in" and Gardener's own message reaches no one.
 * So these paths answer without a token, 404, with a message that says what to send: the
 * MCP authorization spec makes OAuth optional, and a missing metadata document is how a
 * server says it does not use it.
 */

/** Paths a host probes for OAuth, wherever it puts them (`/.well-known/…`, `/mcp/.well-known/…`). */
export function isOAuthDiscovery(path: string): boolean {
  return path.includes('/.well-known/') || path === '/register' || path === '/authorize' || path === '/token';
}

export const NO_OAUTH_MESSAGE =
  'Gardener takes a bearer token, not OAuth: send "Authorization: Bearer <token>" with the token `gardener token` prints (docs/hosts.md)';
