// The keychain and the network, watched for the log at the seams the app service is given, so
// neither the keychain store nor the transports change. A problem is said once until it clears:
// every upload reads the token, and a locked keyring would otherwise fill the log.
import { errorMessage } from '../../portable/error-message';
import { KeychainError, type SecretStore } from '../secrets/secret-store';
import { type Transport, TransportError } from '../upload/transport';
import type { Log } from './log';

/** Says problems once, until the next success. */
function onceUntilCleared(say: (line: string) => void) {
  let last = '';
  return {
    problem(line: string) {
      if (line !== last) say(line);
      last = line;
    },
    cleared() {
      last = '';
    },
  };
}

/** The store as it was, with its problems (locked, no Secret Service, denied) in the log. */
export function loggedSecrets(store: SecretStore, log: Log): SecretStore {
  const said = onceUntilCleared((line) => log.warn(line));
  const watch = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run();
      said.cleared();
      return result;
    } catch (error) {
      // KeychainError messages never hold the secret (keychain-errors.ts takes it out).
      said.problem(
        error instanceof KeychainError
          ? `Keychain (${what}): ${error.problem}: ${error.message}`
          : `Keychain (${what}) failed: ${errorMessage(error)}`,
      );
      throw error;
    }
  };
  return {
    get: (account) => watch('read', () => store.get(account)),
    set: (account, secret) => watch('save', () => store.set(account, secret)),
    delete: (account) => watch('remove', () => store.delete(account)),
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an address that could not be read';
  }
}

/**
 * The transport as it was, with failures below HTTP in the log: a proxy that refused or failed
 * (net's ERR_PROXY_*, proxy-agent's refused CONNECT), DNS, TLS, timeouts. Only the host is
 * logged, never the URL's path or query, nor a header.
 */
export function loggedTransport(transport: Transport, log: Log): Transport {
  const said = onceUntilCleared((line) => log.warn(line));
  return {
    async request(req) {
      try {
        const response = await transport.request(req);
        said.cleared();
        return response;
      } catch (error) {
        // A cancel is the person's, not a problem.
        if (!(error instanceof TransportError && error.code === 'aborted')) {
          const code = error instanceof TransportError ? error.code : 'error';
          said.problem(`Network: ${code} reaching ${hostOf(req.url)}: ${errorMessage(error)}`);
        }
        throw error;
      }
    },
    ...(transport.warm ? { warm: transport.warm.bind(transport) } : {}),
  };
}

/**
 * The system's proxy answer for each host, logged when it changes (a PAC answer names hosts,
 * never credentials), and a resolver that fails.
 */
export function loggedProxyResolver(
  resolve: (url: string) => Promise<string>,
  log: Log,
): (url: string) => Promise<string> {
  const routes = new Map<string, string>();
  return async (url) => {
    const host = hostOf(url);
    try {
      const route = await resolve(url);
      if (routes.get(host) !== route)
        log.info(`Proxy: requests to ${host} go ${route || 'by the system default'}`);
      routes.set(host, route);
      return route;
    } catch (error) {
      log.warn(`Proxy: the system could not say how to reach ${host}: ${errorMessage(error)}`);
      throw error;
    }
  };
}
