// A thread to reply in, as people have it: a message link copied from Slack
// (`https://team.slack.com/archives/C0123/p1700000000123456`, possibly with `?thread_ts=…`)
// or the parent message's ts (`1700000000.123456`).

export type ThreadRef = { ok: true; ts: string; channel?: string } | { ok: false; error: string };

const TS = /^\d{10}\.\d{6}$/;

export function parseThread(input: string): ThreadRef {
  const text = input.trim();
  if (TS.test(text)) return { ok: true, ts: text };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      error: `"${text.slice(0, 80)}" is neither a message link nor a message ts (such as 1700000000.123456).`,
    };
  }
  const match = /\/archives\/([A-Z0-9]+)\/p(\d{10})(\d{6})\/?$/.exec(url.pathname);
  if (!match) {
    return {
      ok: false,
      error: 'That link is not a message link: copy it with "Copy link" on the message.',
    };
  }
  // A link to a reply names its thread's parent in thread_ts: the reply goes to that thread.
  const parent = url.searchParams.get('thread_ts');
  const ts = parent && TS.test(parent) ? parent : `${match[2]}.${match[3]}`;
  return { ok: true, ts, channel: match[1]! };
}
