/**
 * DNS-rebinding guard (decisions §3): only requests addressed to the name we are bound to are
 * served. A web page on evil.example that resolves to 127.0.0.1 still sends `Host: evil.example`.
 */
export function allowedHostnames(configuredHost: string | undefined): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  if (configuredHost) names.add(configuredHost.includes(':') && !configuredHost.startsWith('[') ? `[${configuredHost}]` : configuredHost.toLowerCase());
  return names;
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
