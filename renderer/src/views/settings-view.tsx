import type { Snapshot } from '../../../preload/contract';
import { Notice } from '../ui/notice';
import { PreferencesSection } from './preferences-section';
import { WorkspacesSection } from './workspaces-section';

export function SettingsView(props: { snapshot: Snapshot }) {
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
      <WorkspacesSection snapshot={props.snapshot} />
      <PreferencesSection preferences={props.snapshot.preferences} />
    </section>
  );
}
