import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { Notice } from '../ui/notice';
import { AboutSection } from './about-section';
import { SetupSteps } from './first-run';
import { PreferencesSection } from './preferences-section';
import { WorkspacesSection } from './workspaces-section';

export function SettingsView(props: {
  snapshot: Snapshot;
  queue: readonly QueueItem[];
  onShow: (view: View) => void;
}) {
  return (
    <section class="view" aria-labelledby="settings-title">
      <header class="view__header">
        <h1 id="settings-title" class="view__title" tabIndex={-1}>
          Settings
        </h1>
      </header>
      {props.snapshot.settingsNotice ? (
        <Notice tone="warning">{props.snapshot.settingsNotice}</Notice>
      ) : null}
      {props.snapshot.presets.length === 0 ? (
        <SetupSteps snapshot={props.snapshot} onShow={props.onShow} />
      ) : null}
      <WorkspacesSection snapshot={props.snapshot} queue={props.queue} />
      <PreferencesSection preferences={props.snapshot.preferences} />
      <AboutSection version={props.snapshot.version} preferences={props.snapshot.preferences} />
    </section>
  );
}
