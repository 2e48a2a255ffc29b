// Where a team's set-up link goes once the OS hands it over (hand-off.ts): checked whole
// (main/core/setup-link-check.ts), then the window shows Sign in with Slack filled in from it. A
// refused link is said in a notification and nothing of it is used. The link is never logged:
// it names the team's service, which is nobody else's business.
import { parseSetupLink } from '../core/setup-link-check';
import type { SetupLink } from '../portable/setup-link';
import type { NotificationContent } from './notifications';
import type { Windows } from './windows';

export interface SetupLinkRouting {
  open(raw: string): void;
  /** The link a page still loading did not get as an event (the page asks for it). */
  take(): SetupLink | null;
}

export function createSetupLinkRouting(deps: {
  windows: Pick<Windows, 'showMain' | 'sendToMain'>;
  notify(content: NotificationContent): void;
  log(message: string): void;
}): SetupLinkRouting {
  let pending: SetupLink | null = null;
  return {
    open(raw) {
      const checked = parseSetupLink(raw);
      if (!checked.ok) {
        deps.log('Refused a set-up link that did not pass its checks.');
        deps.notify({ title: 'Set-up link refused', body: checked.error, important: true });
        return;
      }
      pending = checked.link;
      // The page picks the view: Settings, unless files already wait on Getting started,
      // which holds the same sign-in form.
      deps.windows.showMain();
      if (deps.windows.sendToMain('setup-link', checked.link)) pending = null;
    },
    take() {
      const link = pending;
      pending = null;
      return link;
    },
  };
}
