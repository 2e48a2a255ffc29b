// The demo a newcomer (and every browser test) starts with: one workspace on the local
// reference service with its test token, and two presets, the first the default.
import type { AppService } from '../../main/core/api';

/** The reference service's default test token: it may post to C0GENERAL, C0DESIGN and C0RANDOM. */
export const DEMO_TOKEN = 'xoxb-test-token';

export interface DemoIds {
  workspaceId: string;
  designPresetId: string;
  randomPresetId: string;
}

export async function seedDemo(app: AppService, baseUrl: string): Promise<DemoIds> {
  const workspace = await app.addWorkspace({ name: 'Acme', baseUrl, protocol: 'files.upload' });
  await app.setToken(workspace.id, DEMO_TOKEN);
  const design = await app.addPreset({
    name: 'Design review',
    workspaceId: workspace.id,
    channels: [{ id: 'C0DESIGN', label: 'design-review' }, { id: 'C0GENERAL' }],
    comment: '',
  });
  const random = await app.addPreset({
    name: 'Random',
    workspaceId: workspace.id,
    channels: [{ id: 'C0RANDOM', label: 'random' }],
    comment: 'From Trayshare',
  });
  await app.setDefaultPreset(design.id);
  return { workspaceId: workspace.id, designPresetId: design.id, randomPresetId: random.id };
}
