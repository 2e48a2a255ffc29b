// Which upload protocol a service offers, asked without uploading: Slack's current external
// protocol is tried with no arguments. A service that has it refuses the call for its missing
// arguments (invalid_arguments); one that has not answers unknown_method, a retired-method code
// or 404, and then files.upload (the seed's one request) is what it offers.
import { apiUrl, checkBaseUrl, checkToken } from '../../portable/credentials';
import type { Protocol } from '../model';
import type { ProtocolProbe } from '../views';
import { type Transport, TransportError } from './transport';

const NOT_OFFERED = new Set(['unknown_method', 'method_deprecated', 'deprecated_endpoint']);
const CREDENTIAL = new Set([
  'not_authed',
  'invalid_auth',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'not_allowed_token_type',
]);

/** Without an answer: Slack itself has retired files.upload; elsewhere the seed's protocol. */
function guessProtocol(baseUrl: string): Protocol {
  try {
    return /(^|\.)slack\.com$/i.test(new URL(baseUrl.trim()).hostname)
      ? 'external'
      : 'files.upload';
  } catch {
    return 'files.upload';
  }
}

function guess(baseUrl: string, why: string): ProtocolProbe {
  const protocol = guessProtocol(baseUrl);
  return {
    protocol,
    checked: false,
    message: `${why} Using ${protocol === 'external' ? "Slack's external upload protocol" : 'files.upload'}; change it in Settings if uploads fail.`,
  };
}

export async function probeProtocol(
  baseUrl: string,
  token: string,
  transport: Transport,
): Promise<ProtocolProbe> {
  if (!checkBaseUrl(baseUrl).ok || !checkToken(token).ok) {
    return guess(baseUrl, 'The service was not asked which protocol it offers.');
  }
  const url = apiUrl(baseUrl, 'files.getUploadURLExternal');
  try {
    const res = await transport.request({
      url,
      method: 'POST',
      headers: { authorization: `Bearer ${token.trim()}`, accept: 'application/json' },
      contentLength: 0,
      connectTimeoutMs: 15_000,
      idleTimeoutMs: 30_000,
    });
    let error: unknown;
    try {
      error = (JSON.parse(res.body) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    if (res.status === 404 || (typeof error === 'string' && NOT_OFFERED.has(error))) {
      return {
        protocol: 'files.upload',
        checked: true,
        message: 'The service offers files.upload (not the external protocol).',
      };
    }
    if (typeof error === 'string' && CREDENTIAL.has(error)) {
      return {
        ...guess(baseUrl, `The service refused the token (${error}), so it could not be asked.`),
        refused: true,
      };
    }
    if (res.status === 200 && typeof error === 'string') {
      return {
        protocol: 'external',
        checked: true,
        message: "The service offers Slack's current external upload protocol.",
      };
    }
    return guess(baseUrl, `The service answered HTTP ${res.status} when asked.`);
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return guess(baseUrl, `The service could not be reached (${error.message}).`);
  }
}
