// The answer to a 'retired' failure: the workspace moves to Slack's external upload protocol,
// and every file of that workspace that failed for that reason goes again.
import { api } from './bridge';
import { retiredProtocol } from './queue-state';

export async function switchToExternalProtocol(workspaceId: string): Promise<void> {
  await api().updateWorkspace(workspaceId, { protocol: 'external' });
  for (const item of await api().listQueue()) {
    if (item.workspaceId === workspaceId && retiredProtocol(item)) await api().retryItem(item.id);
  }
}
