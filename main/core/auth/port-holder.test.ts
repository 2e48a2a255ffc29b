// What macOS's lsof and Windows' netstat print, read as the sign-in reads them to name the
// program on a taken port (Linux's /proc is read for real in test/cli/slack-login-safety.test.ts
// and test/auth/sign-in.test.ts, where this machine can tell).
import { describe, expect, it } from 'vitest';
import { holderText, parseLsof, parseNetstat } from './port-holder';

describe('naming what holds a port', () => {
  it('reads lsof -F pc (macOS)', () => {
    expect(parseLsof('p4242\ncrclone\np77\ncnode\n')).toEqual([
      { pid: 4242, name: 'rclone' },
      { pid: 77, name: 'node' },
    ]);
    expect(parseLsof('')).toEqual([]);
  });

  it('reads netstat -ano (Windows), in any language, IPv4 and IPv6, listening sockets only', () => {
    const out = [
      'Active Connections',
      '',
      '  Proto  Local Address          Foreign Address        State           PID',
      '  TCP    127.0.0.1:53682        0.0.0.0:0              LISTENING       4242',
      '  TCP    [::1]:53682            [::]:0                 ABHÖREN         4243',
      '  TCP    127.0.0.1:53682        127.0.0.1:50123        ESTABLISHED     999',
      '  TCP    127.0.0.1:536820       0.0.0.0:0              LISTENING       5',
      '  UDP    127.0.0.1:53682        *:*                                    6',
    ].join('\r\n');
    expect(parseNetstat(out, 53682)).toEqual([4242, 4243]);
  });

  it('says a holder as a person reads it', () => {
    expect(holderText({ pid: 4242, name: 'rclone' })).toBe('rclone (process 4242)');
    expect(holderText({ pid: 4242 })).toBe('process 4242');
  });
});
