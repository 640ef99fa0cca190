/**
 * Pure helpers around the system `ping` binary: its arguments and the reading of its output.
 */

/**
 * A host is passed to ping as one argv entry (no shell), but a leading "-" would still be read
 * as an option, so only plain host names and IPv4/IPv6 literals are accepted.
 */
export function isSafePingHost(host: string): boolean {
  return host.length > 0 && host.length <= 253 && !host.startsWith('-') && /^[A-Za-z0-9._:%-]+$/.test(host);
}

/** One echo request, waiting at most timeoutSeconds for the reply. */
export function pingArgs(host: string, timeoutSeconds: number, platform: NodeJS.Platform = process.platform): string[] {
  const seconds = String(Math.max(1, Math.ceil(timeoutSeconds)));
  if (platform === 'win32') return ['-n', '1', '-w', String(Math.ceil(timeoutSeconds * 1000)), host];
  // BSD/macOS -W is in milliseconds; -t is the overall timeout in seconds there.
  if (platform === 'darwin' || platform.endsWith('bsd')) return ['-c', '1', '-t', seconds, host];
  // Linux iputils and BusyBox: -W is the reply wait in seconds; -n skips reverse DNS.
  return ['-n', '-c', '1', '-W', seconds, host];
}

/** Round trip in whole milliseconds from a "time=0.042 ms" (or Windows "time<1ms") line, or null. */
export function parsePingTime(output: string): number | null {
  const match = /time[=<]\s*([\d.]+)\s*ms/i.exec(output);
  if (!match?.[1]) return null;
  const value = Number.parseFloat(match[1]);
  return Number.isFinite(value) ? Math.max(0, Math.round(value)) : null;
}

/** Messages ping prints when it lacks the privilege to open an ICMP socket. */
export function isPermissionFailure(stderr: string): boolean {
  return /operation not permitted|permission denied|cap_net_raw|must be root|socket: /i.test(stderr);
}

/** Messages ping prints when the host name does not resolve. */
export function isUnknownHost(output: string): boolean {
  return /unknown host|name or service not known|cannot resolve|could not find host|temporary failure in name resolution|bad address/i.test(output);
}
