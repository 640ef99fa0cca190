/**
 * DATABASE_URL, checked without a connection: `postgres://` or `postgresql://`, one host or
 * several (`host1:5432,host2:5432`, for a standby that may be promoted; the driver picks one by
 * `target_session_attrs`), each port a port number. Errors name the variable and the problem and
 * never repeat the value, which may carry a password.
 */
export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

export interface DatabaseTarget {
  /** `host:port` of each server, for messages (no user, no password). */
  hosts: string[];
  database: string | null;
}

const SHAPE = /^(?:postgres|postgresql):\/\/(?:[^@/?#]*@)?([^/?#]*)(?:\/([^?#]*))?(?:\?[^#]*)?$/;
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._%-]+)$/;

export function parseDatabaseUrl(text: string): DatabaseTarget {
  const match = SHAPE.exec(text.trim());
  if (!match) throw new DatabaseUrlError('DATABASE_URL must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database)');
  const hostList = match[1] ?? '';
  const hosts = hostList === '' ? [] : hostList.split(',').map((entry) => {
    const portAt = entry.lastIndexOf(':');
    const hasPort = portAt > -1 && !entry.endsWith(']') && entry.indexOf(']', portAt) === -1;
    const host = hasPort ? entry.slice(0, portAt) : entry;
    const port = hasPort ? entry.slice(portAt + 1) : '5432';
    if (!HOST.test(host)) throw new DatabaseUrlError('DATABASE_URL has an empty or malformed host name');
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) throw new DatabaseUrlError('DATABASE_URL has a port that is not a number from 1 to 65535');
    return `${decodeURIComponent(host)}:${port}`;
  });
  let database: string | null = null;
  try {
    database = match[2] ? decodeURIComponent(match[2]) : null;
  } catch {
    throw new DatabaseUrlError('DATABASE_URL has a malformed database name');
  }
  return { hosts: hosts.length > 0 ? hosts : ['localhost:5432'], database };
}
