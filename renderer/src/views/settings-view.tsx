import type { QueueItem, Snapshot, View } from '../../../preload/contract';
import { Notice } from '../ui/notice';
import { AboutUpdates } from './about-updates';
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
      <section class="section" aria-labelledby="about-title">
        <div class="section__header">
          <h2 id="about-title" class="section__title">
            About
          </h2>
        </div>
        <div class="card">
          <p>Trayshare {props.snapshot.version}</p>
          <AboutUpdates preferences={props.snapshot.preferences} />
        </div>
      </section>
    </section>
  );
}
