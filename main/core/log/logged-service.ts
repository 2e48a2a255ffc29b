// The app service with a log: its keychain and network seams watched, and its activity told
// (activity-log.ts). The app and the CLI open their service through this; the service itself
// knows nothing of logs.
import type { AppService } from '../api';
import { type AppServiceDeps, createAppService } from '../app-service';
import { logActivity } from './activity-log';
import type { Log } from './log';
import { loggedSecrets, loggedTransport } from './logged-parts';
import { settingsOnDisk } from './settings-on-disk';

export async function createLoggedAppService(deps: AppServiceDeps, log: Log): Promise<AppService> {
  const service = await createAppService({
    ...deps,
    secrets: loggedSecrets(deps.secrets, log),
    transport: loggedTransport(deps.transport, log),
  });
  // The service's close() clears its listeners, these among them.
  logActivity(service, log, settingsOnDisk(deps.dataDir));
  return service;
}
