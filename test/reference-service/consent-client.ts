// A person at the reference service's consent page, for tests without a browser: opens the
// authorize URL, clicks Allow or Deny (posts the page's own form), and follows the redirect
// back to the app's loopback listener like a browser would. Plain fetch over real HTTP.

export interface ConsentOutcome {
  /** The consent page itself (its HTML), or the error page instead of it. */
  page: { status: number; html: string };
  /** Where the browser was sent after the click (undefined when the page was an error). */
  redirectedTo?: string;
  /** What the app's listener answered the browser tab with. */
  landing?: { status: number; html: string };
}

export interface ConsentChoice {
  decision?: 'approve' | 'deny';
  /** Who signs in (a signer's user ID); default: who the page preselects. */
  as?: string;
  /** Stop after the click, without visiting the redirect (to replay it, or visit it twice). */
  followRedirect?: boolean;
}

export async function consent(
  authorizeUrl: string,
  choice: ConsentChoice = {},
): Promise<ConsentOutcome> {
  const pageUrl = new URL(authorizeUrl);
  if (choice.as) pageUrl.searchParams.set('_as', choice.as);
  const res = await fetch(pageUrl);
  const html = await res.text();
  const page = { status: res.status, html };
  const request = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (res.status !== 200 || !request) return { page };
  const selected = /<option value="([^"]+)" selected>/.exec(html)?.[1] ?? '';
  const form = new URLSearchParams({
    request,
    as: choice.as ?? selected,
    decision: choice.decision ?? 'approve',
  });
  // The page's own form action: each consent page posts back to itself.
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
  const decided = await fetch(new URL(action, pageUrl), {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  await decided.text();
  const redirectedTo = decided.headers.get('location') ?? undefined;
  if (!redirectedTo || choice.followRedirect === false) return { page, redirectedTo };
  return { page, redirectedTo, landing: await visit(redirectedTo) };
}

/** A browser visit to the loopback listener (any answer, or a refused connection). */
export async function visit(url: string): Promise<{ status: number; html: string }> {
  try {
    const res = await fetch(url);
    return { status: res.status, html: await res.text() };
  } catch (error) {
    return { status: 0, html: String((error as Error).cause ?? error) };
  }
}
