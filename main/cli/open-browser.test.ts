import { describe, expect, it } from 'vitest';
import { browserCommand } from './open-browser';

describe('the browser opener', () => {
  const url = 'https://slack.com/oauth/v2_user/authorize?client_id=1.2&state=a&b=c';
  // Each by its full path: Windows looks a bare rundll32 up in the current folder first.
  it.each([
    ['darwin', 'open', '/usr/bin/open', [url]],
    [
      'win32',
      'rundll32',
      'D:\\Windows\\System32\\rundll32.exe',
      ['url.dll,FileProtocolHandler', url],
    ],
  ] as const)(
    'on %s runs %s (%s) with the URL as one argument (no shell)',
    (platform, name, program, args) => {
      expect(browserCommand(url, platform, { SystemRoot: 'D:\\Windows' })).toEqual({
        name,
        program,
        args,
      });
    },
  );

  // xdg-open is found on PATH: its absolute folders only (system-programs.ts).
  it.each(['linux', 'freebsd'] as const)(
    'on %s runs xdg-open from PATH, and says when PATH has none',
    (platform) => {
      const found = browserCommand(url, platform, { PATH: '' });
      expect(found).toEqual({ name: 'xdg-open', program: undefined, args: [url] });
    },
  );
});
