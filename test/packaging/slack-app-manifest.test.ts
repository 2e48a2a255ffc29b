// The Slack app manifest a team admin creates Trayshare's app from (build/slack-app-manifest.json):
// it must ask for what the sign-in asks and nothing more, list the redirect the loopback listener
// uses, and turn PKCE on; and "Create the Slack app for my team" must carry it whole.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLACK_USER_SCOPES, slackRedirectUris } from '../../main/portable/slack-sign-in';
import { CREATE_SLACK_APP_URL } from '../../renderer/src/views/slack-team-setup';

const path = fileURLToPath(new URL('../../build/slack-app-manifest.json', import.meta.url));

interface Manifest {
  display_information: { name: string };
  features?: unknown;
  oauth_config: {
    redirect_urls: string[];
    scopes: { user?: string[]; bot?: string[] };
    pkce_enabled: boolean;
  };
  settings: { token_rotation_enabled: boolean; socket_mode_enabled: boolean };
}

describe('the Slack app manifest', () => {
  it('asks for user scopes only: what the sign-in requests, and files:read for links', async () => {
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Manifest;
    expect(manifest.display_information.name).toBe('Trayshare');
    // "Desktop redirects are not allowed to request bot scopes" (docs.slack.dev/authentication/using-pkce).
    expect(manifest.oauth_config.scopes.bot).toBeUndefined();
    expect(manifest.features).toBeUndefined();
    expect(manifest.oauth_config.scopes.user).toEqual(
      expect.arrayContaining([...SLACK_USER_SCOPES]),
    );
    // The service contract's list ("Sign-in", scopes), files:read included.
    expect([...manifest.oauth_config.scopes.user!].sort()).toEqual(
      [
        'channels:read',
        'files:read',
        'files:write',
        'groups:read',
        'im:read',
        'mpim:read',
        'users:read',
      ].sort(),
    );
  });

  it('lists exactly the loopback redirects the sign-in tries, in order, with PKCE and rotating tokens', async () => {
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Manifest;
    // Slack matches the loopback port exactly (main/portable/slack-sign-in.ts); several fixed
    // ports, the first one the single URL of the first manifest.
    expect(manifest.oauth_config.redirect_urls).toEqual(slackRedirectUris());
    expect(manifest.oauth_config.redirect_urls[0]).toBe('http://localhost:53682/slack/callback');
    expect(new Set(manifest.oauth_config.redirect_urls).size).toBeGreaterThanOrEqual(3);
    // The field as Slack's manifest export names it (node-slack-sdk
    // packages/web-api/src/types/response/AppsManifestExportResponse.ts, OauthConfig.pkce_enabled).
    expect(manifest.oauth_config.pkce_enabled).toBe(true);
    // A localhost redirect gets rotating tokens only with token rotation on (Slack's PKCE changelog).
    expect(manifest.settings.token_rotation_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('is what "Create the Slack app for my team" opens Slack with', async () => {
    const manifest = JSON.parse(await readFile(path, 'utf8')) as unknown;
    const url = new URL(CREATE_SLACK_APP_URL);
    expect(`${url.origin}${url.pathname}`).toBe('https://api.slack.com/apps');
    expect(url.searchParams.get('new_app')).toBe('1');
    expect(JSON.parse(url.searchParams.get('manifest_json')!)).toEqual(manifest);
    // The shell's openExternal takes links up to 4096 characters (preload/contract.ts).
    expect(CREATE_SLACK_APP_URL.length).toBeLessThanOrEqual(4096);
  });
});
