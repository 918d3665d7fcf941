import { hostname, networkInterfaces } from 'node:os';

/**
 * DNS-rebinding guard (decisions §3): only requests addressed to the name we are bound to are
 * served. A web page on evil.example that resolves to 127.0.0.1 still sends `Host: evil.example`.
 */
export function allowedHostnames(configuredHost: string | undefined): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  const add = (name: string) => {
    // Compared with hostnameOf(), which lower-cases: so is the configured name, IPv6 literals included.
    const host = name.trim().toLowerCase();
    names.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
  };
  if (!configuredHost) return names;
  add(configuredHost);
  // Bound to every interface (a LAN hub): the stations address this machine by one of its own
  // addresses or its host name, and nothing else is let through.
  if (configuredHost === '0.0.0.0' || configuredHost === '::') {
    for (const addresses of Object.values(networkInterfaces())) for (const address of addresses ?? []) add(address.address);
    add(hostname());
    // Stations on a LAN without DNS reach the hub by its mDNS name (hub.local). That name is
    // answered on the LAN itself, never by a web page's DNS, so it opens no rebinding path.
    if (!hostname().includes('.')) add(`${hostname()}.local`);
  }
  return names;
}

/**
 * Where stations reach a server bound to every interface: 0.0.0.0 in its start-up line is no
 * address anyone can type. Its LAN addresses (IPv4, not loopback) and mDNS name, which the Host
 * check above lets through.
 */
export function stationUrls(boundHost: string, port: number): string[] {
  if (boundHost !== '0.0.0.0' && boundHost !== '::') return [];
  const addresses = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => `http://${address.address}:${port}`);
  const name = hostname().toLowerCase();
  return [...addresses, `http://${name.includes('.') ? name : `${name}.local`}:${port}`];
}

/** The host part of a Host header, without the port; IPv6 keeps its brackets. */
export function hostnameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  return host.split(':')[0] ?? '';
}

/** How many Host headers a request has (`rawHeaders` alternates names and values). */
export function hostHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.length === 4 && rawHeaders[i]?.toLowerCase() === 'host') count++;
  return count;
}

/** The authority of a request line in absolute form (`http://host:port/path`), else null. */
export function absoluteFormHost(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  if (!match) return null;
  // user:password@host is not a thing browsers send, but it must not hide the host either.
  return (match[1] ?? '').replace(/^.*@/, '');
}
