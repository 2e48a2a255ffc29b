// The share sheet is open: warm the connections the share will use, while the person picks
// the channel and writes the comment. Over a real link a share's first requests otherwise wait
// for a TCP and a TLS set-up (two round trips) on the API host and again on the upload host
// (Slack's files.slack.com), and the connections of the last share were closed after a few
// idle seconds (node-transport.ts IDLE_MS). Both hosts: preconnect.ts shareOrigins.
//
// Nothing is sent and nothing is read from the keychain: only connections are opened, by the
// transport that will make the requests, where it can (direct, not through a proxy), and only
// to https origins (shareOrigins).
import type { SettingsService } from '../settings/settings-service';
import { STEP_ONE_IN_FLIGHT } from '../upload/external/request';
import { shareOrigins } from '../upload/preconnect';
import type { Transport } from '../upload/transport';

export function prepareShareMethod(deps: {
  settings: Pick<SettingsService, 'workspace'>;
  transport: Transport;
}): (workspaceId: string, files: number) => Promise<void> {
  return async (workspaceId, files) => {
    const workspace = deps.settings.workspace(workspaceId);
    if (!workspace || !deps.transport.warm) return;
    // The external protocol asks for every file's upload address at once, then sends every
    // file's bytes at once; files.upload starts with one file.
    const count = workspace.protocol === 'external' ? Math.min(files, STEP_ONE_IN_FLIGHT) : 1;
    for (const origin of shareOrigins(workspace.baseUrl)) deps.transport.warm(origin, count);
  };
}
