// Settings → About: the version, and what a person needs to report a problem: the logs folder
// and the diagnostics, both done by main (the page never sees the log's text).
import { useState } from 'preact/hooks';
import type { Preferences } from '../../../preload/contract';
import { api } from '../bridge';
import { ActionError, Notice } from '../ui/notice';
import { useAction } from '../use-action';
import { AboutUpdates } from './about-updates';

export function AboutSection(props: { version: string; preferences: Preferences }) {
  const action = useAction();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    setCopied(false);
    const done = await action.run(async () => {
      await api().copyDiagnostics();
      return true;
    });
    if (done) setCopied(true);
  };
  const open = () => {
    setCopied(false);
    void action.run(() => api().openLogsFolder());
  };
  return (
    <section class="section" aria-labelledby="about-title">
      <div class="section__header">
        <h2 id="about-title" class="section__title">
          About
        </h2>
      </div>
      <div class="card">
        <p class="about__version">Trayshare {props.version}</p>
        <AboutUpdates preferences={props.preferences} />
        <p id="about-logs-help" class="field__help">
          To report a problem, attach the log or paste the diagnostics. They hold versions, what
          happened to each share and why, never your tokens, comments or file contents; file names
          only with “Detailed logs” on.
        </p>
        <div class="actions">
          <button
            type="button"
            id="about-open-logs"
            class="button button--small"
            aria-describedby="about-logs-help"
            onClick={open}
          >
            Open logs folder
          </button>
          <button
            type="button"
            id="about-copy-diagnostics"
            class="button button--small"
            aria-describedby="about-logs-help"
            disabled={action.busy}
            onClick={() => void copy()}
          >
            Copy diagnostics
          </button>
        </div>
        {action.error ? (
          <ActionError error={action.error} />
        ) : copied ? (
          <Notice tone="success">Diagnostics copied: paste them into your report.</Notice>
        ) : null}
      </div>
    </section>
  );
}
