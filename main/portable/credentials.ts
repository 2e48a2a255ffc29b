// Checks made before any byte is sent: a request that would leak the token, post anonymously
// or talk to an incoming webhook is refused with a message that says why. The seed's spec
// (shared/spec/seed-files-upload.md) says files.upload is an ordinary request, never an
// incoming-webhook address, and that such an address is not a credential for it (section 4,
// rule 3); and that the service takes no anonymous uploads (section 5, rule 2).

export type CheckResult = { ok: true } | { ok: false; code: string; message: string };

const ok: CheckResult = { ok: true };

function looksLikeUrl(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^hooks\.[^/\s]+\//i.test(value);
}

function isWebhookPath(url: URL): boolean {
  return /^hooks\./i.test(url.hostname) || /\/services\/[^/]+\/[^/]+/i.test(url.pathname);
}

/** The token must be present, a single line, and not a URL (an incoming-webhook address is not a credential). */
export function checkToken(token: string | undefined | null): CheckResult {
  const value = token?.trim() ?? '';
  if (value === '') {
    return {
      ok: false,
      code: 'no_token',
      message:
        // The app's words; the command line says `trayshare login` instead (cli/token-words.ts).
        'No token: this workspace has no token saved. Add one in Settings.',
    };
  }
  if (looksLikeUrl(value)) {
    return {
      ok: false,
      code: 'token_is_url',
      message:
        'That is a URL, not a token. An incoming-webhook address cannot upload files; paste the access token (for Slack it starts with xoxb- or xoxp-).',
    };
  }
  if (/[\s\p{Cc}]/u.test(value)) {
    return {
      ok: false,
      code: 'token_malformed',
      message: 'The token contains spaces or line breaks; paste it again as one piece.',
    };
  }
  return ok;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** True for hosts that never leave this machine, where plain http is allowed. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/** The base URL must be https (http only on loopback) and must not be a webhook address. */
export function checkBaseUrl(baseUrl: string): CheckResult {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return {
      ok: false,
      code: 'base_url_invalid',
      message: `"${baseUrl}" is not a URL; the base URL looks like https://slack.com.`,
    };
  }
  if (isWebhookPath(url)) {
    return {
      ok: false,
      code: 'base_url_webhook',
      message:
        'That base URL is an incoming-webhook address; webhooks cannot upload files. Use the service address, such as https://slack.com.',
    };
  }
  // "https://host/x?y=1" + "/api/files.upload" would post to "/x?y=1/api/files.upload", and a
  // fragment swallows the method path entirely (the file would go to "/").
  if (url.search || baseUrl.includes('?')) {
    return {
      ok: false,
      code: 'base_url_query',
      message:
        'The base URL must not have a query ("?…"); use just the address, such as https://slack.com.',
    };
  }
  if (url.hash || baseUrl.includes('#')) {
    return {
      ok: false,
      code: 'base_url_fragment',
      message:
        'The base URL must not have a fragment ("#…"); use just the address, such as https://slack.com.',
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      code: 'base_url_credentials',
      message:
        'The base URL must not contain a user name or password; the token goes in its own field.',
    };
  }
  if (url.protocol === 'https:') return ok;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return ok;
  if (url.protocol === 'http:') {
    return {
      ok: false,
      code: 'base_url_insecure',
      message: `Refusing plain http to ${url.hostname}: the token would cross the network unencrypted. Use https:// (http is allowed only for localhost).`,
    };
  }
  return {
    ok: false,
    code: 'base_url_invalid',
    message: `The base URL must start with https:// (got ${url.protocol}//).`,
  };
}

/** `${baseUrl}/api/${method}`, tolerating a trailing slash on the base URL. */
export function apiUrl(baseUrl: string, method: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}/api/${method}`;
}
