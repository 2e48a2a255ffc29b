// "Test connection": asks the service whether it accepts the token, without uploading.
// Services that implement only files.upload (the seed shows nothing else) answer 404 or
// unknown_method; then the token simply cannot be checked ahead of time.
import { apiUrl, checkBaseUrl, checkToken } from '../../portable/credentials';
import type { FailureReason } from '../model';
import { classifyResponse } from './classify';
import { type Transport, TransportError } from './transport';

export type AuthTestResult =
  | { ok: true; user?: string; team?: string }
  | { ok: false; reason: FailureReason; checked: boolean };

const CONNECT_TIMEOUT_MS = 15_000;
const IDLE_TIMEOUT_MS = 30_000;

function notOffered(): AuthTestResult {
  return {
    ok: false,
    checked: false,
    reason: {
      class: 'other',
      code: 'auth_test_unavailable',
      message:
        'This service offers no way to check a token without uploading; the first upload will tell.',
    },
  };
}

// A service with a path in its base URL (a gateway prefix) that answers 404 to auth.test is far
// more likely reached at the wrong path than lacking auth.test: saying "cannot be checked"
// would let every upload go to that wrong address.
function pathLooksWrong(baseUrl: string): AuthTestResult | undefined {
  const path = new URL(baseUrl.trim()).pathname.replace(/\/+$/, '');
  if (path === '') return undefined;
  return {
    ok: false,
    checked: true,
    reason: {
      class: 'input',
      code: 'base_url_wrong',
      message: `The base URL looks wrong: ${apiUrl(baseUrl, 'auth.test')} was not found (404). Check the path "${path}", or use just the service's address, such as https://slack.com.`,
    },
  };
}

function answer(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function authTest(
  baseUrl: string,
  token: string,
  transport: Transport,
): Promise<AuthTestResult> {
  for (const check of [checkToken(token), checkBaseUrl(baseUrl)]) {
    if (!check.ok) {
      return {
        ok: false,
        checked: true,
        reason: { class: 'input', code: check.code, message: check.message },
      };
    }
  }
  const url = apiUrl(baseUrl, 'auth.test');
  // auth.test changes nothing on the service, so "the whole request was sent" never matters.
  const ctx = { channels: [], url, bodyComplete: false };
  try {
    const res = await transport.request({
      url,
      method: 'POST',
      headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' },
      contentLength: 0,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      idleTimeoutMs: IDLE_TIMEOUT_MS,
    });
    if (res.status === 404) return pathLooksWrong(baseUrl) ?? notOffered();
    const json = answer(res.body);
    if (res.status >= 200 && res.status < 300 && json?.ok === true) {
      return {
        ok: true,
        ...(typeof json.user === 'string' ? { user: json.user } : {}),
        ...(typeof json.team === 'string' ? { team: json.team } : {}),
      };
    }
    if (json?.ok === false && json.error === 'unknown_method') return notOffered();
    if (json?.ok === false || (res.status >= 300 && res.status < 400)) {
      // Slack error codes (credential and the rest) and redirects read the same as for uploads.
      const result = classifyResponse(res, ctx);
      if (result.kind === 'failed' || result.kind === 'unknown') {
        return { ok: false, checked: true, reason: result.reason };
      }
    }
    return {
      ok: false,
      checked: true,
      reason: {
        class: res.status === 429 || res.status === 503 ? 'transient' : 'other',
        code: `http_${res.status}`,
        message: `The service answered HTTP ${res.status} instead of a Slack-style answer: check the base URL, or try again later.`,
      },
    };
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    // Nothing to be unsure about here: auth.test changes nothing on the service.
    const reason: FailureReason = {
      class: error.code === 'tls_error' ? 'other' : 'transient',
      code: error.code,
      message: error.message,
    };
    return { ok: false, checked: true, reason };
  }
}
