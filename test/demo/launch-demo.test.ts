// `npm run demo` prepares what the app needs before launching Electron (which cannot run
// here): a settings folder the app reads, a demo workspace on the local reference service,
// two presets, and the token in the real keychain (gnome-keyring via test/with-keyring.sh)
// and nowhere else.
import { randomUUID } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../main/core/app-service';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { accessAccount } from '../../main/core/secrets/workspace-secrets';
import { confStoreFactory } from '../../main/core/settings/settings-service';
import { parseSetupLink } from '../../main/core/setup-link-check';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { SLACK_USER_SCOPES, slackRedirectUri } from '../../main/portable/slack-sign-in';
import { createMemorySecretStore } from '../harness/memory-secrets';
import { DEMO_TOKEN } from '../harness/seed';
import { DEFAULT_CLIENT_ID } from '../reference-service/oauth-config';
import { prepareDemo } from './launch-demo';

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(path)));
    else out.push(path);
  }
  return out;
}

describe('demo launcher', () => {
  it('prepares a workspace on the reference service, two presets and the token in the keychain only', async () => {
    const secrets = createKeychainStore({ service: `Trayshare-test-demo-${randomUUID()}` });
    const demo = await prepareDemo({ secrets });
    try {
      expect(demo.reference.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(
        await secrets.get(accessAccount({ id: demo.ids.workspaceId, baseUrl: demo.reference.url })),
      ).toBe(DEMO_TOKEN);
      expect(demo.electronArgs).toEqual([
        expect.any(String),
        `--user-data-dir=${demo.userDataDir}`,
      ]);
      expect(demo.electronArgs.join(' ')).not.toContain(DEMO_TOKEN);
      for (const file of await allFiles(demo.userDataDir)) {
        expect(await readFile(file, 'utf8')).not.toContain(DEMO_TOKEN);
      }

      // What the app sees when it opens that folder: the workspace, the presets, a working token.
      const app = await createAppService({
        dataDir: demo.userDataDir,
        secrets,
        transport: createNodeTransport(),
      });
      try {
        const snapshot = await app.getSnapshot();
        expect(snapshot.workspaces).toEqual([
          expect.objectContaining({ baseUrl: demo.reference.url, hasToken: true }),
        ]);
        expect(snapshot.presets.map((p) => p.name)).toEqual(['Design review', 'Random']);
        expect(snapshot.defaultPresetId).toBe(demo.ids.designPresetId);
        expect((await app.testConnection(demo.ids.workspaceId)).ok).toBe(true);
      } finally {
        await app.close();
      }
    } finally {
      await demo.cleanup();
    }
    expect(
      await secrets.get(accessAccount({ id: demo.ids.workspaceId, baseUrl: demo.reference.url })),
    ).toBeNull();
    await expect(stat(demo.userDataDir)).rejects.toThrow();
  });

  it('npm run demo: nothing saved, the app started with a set-up link its service signs in with', async () => {
    const secrets = createMemorySecretStore();
    const demo = await prepareDemo({ how: 'sign-in', secrets });
    let workspaceId = '';
    try {
      // The app folder, the settings folder and the link: no token anywhere.
      expect(demo.electronArgs).toEqual([
        expect.any(String),
        `--user-data-dir=${demo.userDataDir}`,
        demo.setupLink,
      ]);
      expect(parseSetupLink(demo.setupLink)).toEqual({
        ok: true,
        link: {
          baseUrl: demo.reference.url,
          clientId: DEFAULT_CLIENT_ID,
          name: 'Reference service',
        },
      });
      await expect(stat(demo.userDataDir)).rejects.toThrow();
      // The service's Slack app takes that client ID with the redirect the app listens on: its
      // consent page asks, rather than showing an error.
      const authorize = new URL('/oauth/v2/authorize', demo.reference.url);
      authorize.search = new URLSearchParams({
        client_id: DEFAULT_CLIENT_ID,
        user_scope: SLACK_USER_SCOPES.join(','),
        redirect_uri: slackRedirectUri(),
        state: 'demo',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const consent = await fetch(authorize);
      expect(consent.status).toBe(200);
      expect(await consent.text()).toContain('>Allow</button>');

      // What the app keeps once the person has signed in: a workspace, its tokens in the keychain.
      const app = await createAppService({
        dataDir: demo.userDataDir,
        secrets,
        transport: createNodeTransport(),
        storeFactory: confStoreFactory,
      });
      try {
        const ws = await app.addWorkspace({ name: 'Demo', baseUrl: demo.reference.url });
        workspaceId = ws.id;
        await secrets.set(ws.id, 'xoxe.xoxp-demo-access');
        await secrets.set(`${ws.id}:refresh`, 'xoxe-1-demo-refresh');
      } finally {
        await app.close();
      }
    } finally {
      await demo.cleanup();
    }
    // Ending the demo forgets them, kept as they were before tokens were tied to an origin too.
    expect(await secrets.get(workspaceId)).toBeNull();
    expect(await secrets.get(`${workspaceId}:refresh`)).toBeNull();
  });
});
