import { describe, expect, it } from 'vitest';
import { browserCommand } from './open-browser';

describe('the browser opener', () => {
  const url = 'https://slack.com/oauth/v2_user/authorize?client_id=1.2&state=a&b=c';
  it.each([
    ['darwin', 'open', [url]],
    ['linux', 'xdg-open', [url]],
    ['freebsd', 'xdg-open', [url]],
    ['win32', 'rundll32', ['url.dll,FileProtocolHandler', url]],
  ] as const)(
    'on %s runs %s with the URL as one argument (no shell)',
    (platform, command, args) => {
      expect(browserCommand(url, platform)).toEqual([command, args]);
    },
  );
});
