// A self-signed certificate for 127.0.0.1 and localhost, for the reference service's https mode
// (startReferenceService({ tls })). Test-only: the key is public and protects nothing. Made
// once, valid until 2126, with
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
//     -keyout localhost-key.pem -out localhost-cert.pem -days 36500 \
//     -subj "/CN=Trayshare reference service (test only)" \
//     -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -addext "basicConstraints=critical,CA:TRUE"
// A client trusts it as a real one trusts Slack's: a child process through NODE_EXTRA_CA_CERTS
// (read at its start, https://nodejs.org/api/cli.html#node_extra_ca_certsfile), nothing
// switched off.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The certificate's path, for NODE_EXTRA_CA_CERTS. */
export const TEST_CERT_PATH = fileURLToPath(new URL('./tls/localhost-cert.pem', import.meta.url));

export function testTls(): { key: Buffer; cert: Buffer } {
  return {
    key: readFileSync(fileURLToPath(new URL('./tls/localhost-key.pem', import.meta.url))),
    cert: readFileSync(TEST_CERT_PATH),
  };
}
