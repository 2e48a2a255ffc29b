// Settings → About's updates. The state comes from main (getUpdates, then
// 'updates-changed'); failures are a quiet line here, never a dialog.
import { useEffect, useState } from 'preact/hooks';
import type { Preferences, UpdateView } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError } from '../ui/notice';
import { useAction } from '../use-action';

function UpdateControls(props: { view: UpdateView; checkAutomatically: boolean }) {
  const { view } = props;
  const action = useAction();
  const [automatic, setAutomatic] = useState(props.checkAutomatically);
  useEffect(() => setAutomatic(props.checkAutomatically), [props.checkAutomatically]);
  const setChecks = async (on: boolean) => {
    setAutomatic(on);
    const saved = await action.run(() => api().setPreferences({ checkForUpdates: on }));
    if (!saved) setAutomatic(props.checkAutomatically);
  };
  return (
    <>
      <div class="inline">
        {view.canCheck ? (
          <button
            type="button"
            class="button button--small"
            disabled={action.busy}
            onClick={() => void action.run(() => api().checkUpdatesNow())}
          >
            Check now
          </button>
        ) : null}
        {view.restartLabel && view.status !== 'restarting' ? (
          <button
            type="button"
            class="button button--small button--primary"
            onClick={() => void action.run(() => api().restartToUpdate())}
          >
            {view.restartLabel}
          </button>
        ) : null}
        {view.status === 'restarting' ? (
          <button
            type="button"
            class="button button--small"
            onClick={() => void action.run(() => api().cancelRestart())}
          >
            Cancel restart
          </button>
        ) : null}
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={automatic}
          onChange={(e) => void setChecks(e.currentTarget.checked)}
        />
        <span>Check for updates automatically</span>
      </label>
      {action.error ? <ActionError error={action.error} /> : null}
    </>
  );
}

/** The update line and its buttons, inside Settings → About's card. */
export function AboutUpdates(props: { preferences: Preferences }) {
  const [view, setView] = useState<UpdateView | null>(null);
  useEffect(() => {
    const bridge = api();
    const off = bridge.on('updates-changed', setView);
    bridge.getUpdates().then(setView, () => setView(null));
    return off;
  }, []);
  return (
    <>
      {view?.message ? (
        <p class="field__help" role="status" id="update-status">
          {view.message}
        </p>
      ) : null}
      {view?.installNote ? (
        <p class="field__help" id="update-install-note">
          {view.installNote}
        </p>
      ) : null}
      {view && view.status !== 'unavailable' ? (
        <UpdateControls view={view} checkAutomatically={props.preferences.checkForUpdates} />
      ) : null}
    </>
  );
}
