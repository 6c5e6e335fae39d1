/**
 * The one list of loopback names: what the owner may bind without --allow-remote, what the HTTP
 * guard accepts in a Host or Origin header, and what needs no extra allowed host. A name is
 * loopback when it can only reach this machine: `localhost`, `::1` (bracketed in a URL's host)
 * or an IPv4 address in 127.0.0.0/8, written as an address (a DNS name that starts with
 * "127." is a DNS name, and may point anywhere).
 */

const LOOPBACK_NAMES = new Set(['localhost', '::1', '[::1]']);

export function isLoopbackHost(name: string): boolean {
  const h = name.toLowerCase();
  if (LOOPBACK_NAMES.has(h)) return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 !== null && v4.slice(1).every((octet) => Number(octet) <= 255);
}
