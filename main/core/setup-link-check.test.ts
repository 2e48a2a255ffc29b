// The set-up link a team admin shares: what the app builds is what it reads back, and anything
// else handed to the app as a trayshare: link is refused whole, with a sentence saying why.
import { describe, expect, it } from 'vitest';
import { setupLinkFor } from '../portable/setup-link';
import { isSetupLink, parseSetupLink, setupLinkFromArgv } from './setup-link-check';

const good = { baseUrl: 'https://slack.com', clientId: '1234567890.1234567890123', name: 'Acme' };

describe('the set-up link', () => {
  it('reads back what the app builds, name optional', () => {
    const link = setupLinkFor(good);
    expect(link).toBe(
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1234567890.1234567890123&name=Acme',
    );
    expect(parseSetupLink(link)).toEqual({ ok: true, link: good });
    const { name: _, ...unnamed } = good;
    expect(parseSetupLink(setupLinkFor(unnamed))).toEqual({ ok: true, link: unnamed });
    // A local Slack-style service over loopback http is allowed, as for any workspace.
    const local = { ...good, baseUrl: 'http://127.0.0.1:8080' };
    expect(parseSetupLink(setupLinkFor(local))).toEqual({ ok: true, link: local });
  });

  it('takes the slash and upper-case scheme browsers and OSes may add', () => {
    const link = setupLinkFor(good).replace('trayshare://setup?', 'TRAYSHARE://setup/?');
    expect(parseSetupLink(link)).toEqual({ ok: true, link: good });
  });

  it.each([
    ['not a link', 'trayshare:', 'it does not ask to set up a workspace'],
    ['another scheme', 'https://setup?base_url=x', 'it is a https: link'],
    [
      'another action',
      'trayshare://share?base_url=https%3A%2F%2Fslack.com&client_id=1.2',
      'it does not ask to set up a workspace',
    ],
    ['no client ID', 'trayshare://setup?base_url=https%3A%2F%2Fslack.com', 'it has no client_id'],
    ['no base URL', 'trayshare://setup?client_id=1.2', 'it has no base_url'],
    [
      'plain http to a remote host',
      'trayshare://setup?base_url=http%3A%2F%2Fslack.com&client_id=1.2',
      'its service address is refused',
    ],
    [
      'a webhook address',
      'trayshare://setup?base_url=https%3A%2F%2Fhooks.slack.com%2Fservices%2FT%2FB%2FX&client_id=1.2',
      'incoming-webhook',
    ],
    [
      'a token',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1.2&token=xoxb-1',
      'it carries token, which a set-up link never has',
    ],
    [
      'a token as client ID',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=xoxp-123-456',
      'it carries a token where the client ID goes',
    ],
    [
      'a client ID with spaces',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1%202',
      'its client ID is not one',
    ],
    [
      'a field twice',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1.2&client_id=3.4',
      'it gives client_id twice',
    ],
    [
      'a control character in the name',
      'trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1.2&name=A%0Acme',
      'control characters',
    ],
    [
      'a password',
      'trayshare://me:pw@setup?base_url=https%3A%2F%2Fslack.com&client_id=1.2',
      'parts a set-up link never has',
    ],
    [
      'too long',
      `trayshare://setup?base_url=https%3A%2F%2Fslack.com&client_id=1.2&name=${'a'.repeat(5000)}`,
      'it is too long',
    ],
  ])('refuses %s, saying why', (_what, raw, why) => {
    const result = parseSetupLink(raw);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^This set-up link cannot be used: /);
    expect(result.error).toContain(why);
    expect(result.error).toMatch(/Ask for a new one from whoever shared it\.$/);
  });

  it.each([
    ['a right-to-left override', `Acme\u202Egnp.exe`],
    ['a zero-width space', 'Ac\u200Bme'],
    ['Latin with a Cyrillic look-alike', 'Slаck'],
    ['Latin with a Greek look-alike', 'Αcme Corp'],
    ['fullwidth letters', 'ｓｌａｃｋ'],
  ])('refuses a workspace name with %s', (_what, name) => {
    const check = parseSetupLink(setupLinkFor({ ...good, name }));
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.error).toMatch(/invisible or text-direction|look-alike letters/);
  });

  it('keeps a name in one alphabet, whichever it is', () => {
    for (const name of ['Акме', 'Ακμή', 'アクメ', 'Acme Ünïcode']) {
      expect(parseSetupLink(setupLinkFor({ ...good, name }))).toMatchObject({ ok: true });
    }
  });

  it('gives an international host in the ASCII form the browser uses', () => {
    const check = parseSetupLink(setupLinkFor({ ...good, baseUrl: 'https://slаck.com' }));
    expect(check).toMatchObject({ ok: true, link: { baseUrl: 'https://xn--slck-63d.com' } });
  });

  it('is found among the arguments a launch gets (Windows and Linux hand it on the command line)', () => {
    const link = setupLinkFor(good);
    expect(setupLinkFromArgv(['C:\\Trayshare\\Trayshare.exe', '--allow-file-access', link])).toBe(
      link,
    );
    expect(setupLinkFromArgv(['/usr/bin/trayshare', '--share', '/home/ana/a.txt'])).toBeUndefined();
    expect(isSetupLink('Trayshare://setup')).toBe(true);
    expect(isSetupLink('/home/ana/trayshare:notes.txt')).toBe(false);
  });
});
