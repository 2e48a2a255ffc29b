// One process of the cross-process renewal test (test/keychain/renewal-across-processes),
// spawned twice: the core's renewal (auth/renewal.ts) over the real keychain and the settings
// in DATA_DIR, asked to renew the workspace's current access token at the same moment as the
// other. Prints the SHA-256 of the token it ends with (never a token itself) as one JSON line.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { openRenewal } from '../../main/core/auth/renewal';
import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { accessAccount } from '../../main/core/secrets/workspace-secrets';
import { openSettingsService } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';

const [dataDir, workspaceId, go] = process.argv.slice(2) as [string, string, string];
const secrets = createKeychainStore();
const transport = createNodeTransport();
const settings = openSettingsService({ dir: dataDir, secrets, transport });
const renewal = openRenewal({
  secrets,
  transport,
  workspace: (id) => settings.workspace(id),
  setTokenExpiry: (id, at) => settings.setTokenExpiry(id, at),
  lockDir: dataDir,
});
const workspace = settings.workspace(workspaceId)!;
const stale = (await secrets.get(accessAccount(workspace)))!;
// Both processes have read the same token; they start renewing as soon as the go file appears.
process.stdout.write('ready\n');
while (!existsSync(go)) await new Promise((r) => setTimeout(r, 5));
try {
  const token = await renewal.renew(workspace, stale);
  const sha = createHash('sha256').update(token).digest('hex');
  process.stdout.write(`${JSON.stringify({ ok: true, sha })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (error as Error).message })}\n`);
}
