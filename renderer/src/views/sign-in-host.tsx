// Where Sign in with Slack will send the person, shown before anything opens whenever it is not
// Slack's own servers (slack.com): the host, large and plain, in the ASCII form the browser will
// use (an international look-alike such as "slаck.com" shows as xn--…). A set-up link can carry
// any host with a Slack-looking client ID and name; this is what cannot be dressed up.
import { setupLinkHost } from '../../../main/portable/setup-link';
import { Notice } from '../ui/notice';

export function SignInHost(props: { baseUrl: string; clientId: string }) {
  const where = setupLinkHost(props.baseUrl, props.clientId);
  if (!where || where.isSlack) return null;
  return (
    <div class="sign-in-host" role="note" aria-labelledby="sign-in-host-name">
      <p class="field__help">Signing in sends you to this address:</p>
      <p id="sign-in-host-name" class="sign-in-host__name" dir="ltr" translate={false}>
        {where.host}
      </p>
      <p class="field__help">
        This is not Slack (slack.com). Sign in only if your team runs its service there.
      </p>
      {where.slackIdElsewhere ? (
        <Notice tone="warning">
          {`The client ID looks like a Slack app’s, but ${where.host} is not Slack: a link like this can dress another server as Slack. Sign in only if you trust ${where.host}.`}
        </Notice>
      ) : null}
    </div>
  );
}
