import { describe, expect, it } from 'vitest';
import {
  isPermissionFailure,
  isSafePingHost,
  isUnknownHost,
  parsePingTime,
  pingArgs,
} from '../../../src/service/checks/ping-output.ts';

describe('parsePingTime', () => {
  it.each([
    ['iputils', '64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.042 ms', 0],
    ['iputils, slower', '64 bytes from 1.1.1.1: icmp_seq=1 ttl=57 time=12.6 ms', 13],
    ['busybox', '64 bytes from 10.0.0.1: seq=0 ttl=64 time=3.210 ms', 3],
    ['macOS', '64 bytes from 8.8.8.8: icmp_seq=0 ttl=117 time=21.487 ms', 21],
    ['windows', 'Reply from 127.0.0.1: bytes=32 time<1ms TTL=128', 1],
    ['windows, slower', 'Reply from 8.8.8.8: bytes=32 time=15ms TTL=117', 15],
  ])('reads %s output', (_name, output, expected) => {
    expect(parsePingTime(`PING host\n${output}\n--- statistics ---`)).toBe(expected);
  });

  it('returns null when there was no reply', () => {
    expect(parsePingTime('PING 10.0.0.9 56(84) bytes of data.\n\n1 packets transmitted, 0 received, 100% packet loss')).toBeNull();
  });
});

describe('pingArgs', () => {
  it('sends one echo request with the timeout in the flag each platform understands', () => {
    expect(pingArgs('example.com', 5, 'linux')).toEqual(['-n', '-c', '1', '-W', '5', 'example.com']);
    expect(pingArgs('example.com', 5, 'darwin')).toEqual(['-c', '1', '-t', '5', 'example.com']);
    expect(pingArgs('example.com', 5, 'win32')).toEqual(['-n', '1', '-w', '5000', 'example.com']);
  });
});

describe('isSafePingHost', () => {
  it.each(['127.0.0.1', '::1', 'fe80::1%eth0', 'status.example.com', 'my_host-1'])('accepts %s', (host) => {
    expect(isSafePingHost(host)).toBe(true);
  });
  it.each(['', '-f', '--help', 'a b', 'host;reboot', '$(id)', 'x'.repeat(254)])('rejects %j', (host) => {
    expect(isSafePingHost(host)).toBe(false);
  });
});

describe('ping error output', () => {
  it('recognises missing privileges', () => {
    expect(isPermissionFailure('ping: socket: Operation not permitted')).toBe(true);
    expect(isPermissionFailure('ping: permission denied (are you root?)')).toBe(true);
    expect(isPermissionFailure('ping: example.invalid: Name or service not known')).toBe(false);
  });

  it('recognises unknown hosts', () => {
    expect(isUnknownHost('ping: example.invalid: Name or service not known')).toBe(true);
    expect(isUnknownHost('ping: unknown host example.invalid')).toBe(true);
    expect(isUnknownHost('ping: cannot resolve example.invalid: Unknown host')).toBe(true);
    expect(isUnknownHost('1 packets transmitted, 0 received')).toBe(false);
  });
});
