// Saving a token as Settings does (token-save.ts) and how the answer names its holder, against
// the reference service over real HTTP (found by mutation testing, docs/mutation.md): what is
// saved (trimmed), what is not (a malformed or refused token), and the exact words of each answer.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReferenceService,
  startReferenceService,
} from '../../../test/reference-service/server';
import type { Workspace } from '../model';
import { RefusedError } from '../refused-error';
import { createNodeTransport } from '../upload/node-transport';
import { checkAndSaveToken } from './token-save';
import { tokenHolder } from './workspace-tokens';

let root: string;
let service: ReferenceService;
const transport = createNodeTransport();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trayshare-token-save-'));
  service = await startReferenceService({ dataDir: join(root, 'service') });
});
afterEach(() => service.clearFaults());
afterAll(async () => {
  await service.close();
  await rm(root, { recursive: true, force: true });
});

const acme = (): Workspace =>
  ({ id: 'W1', name: 'Acme', baseUrl: service.url, protocol: 'external' }) as Workspace;

async function save(token: string, workspace = acme()) {
  const saved: string[] = [];
  const answer = await checkAndSaveToken(workspace, token, {
    transport,
    save: async (t) => {
      saved.push(t);
    },
  });
  return { answer, saved };
}

describe('who a token is for', () => {
  it('"as USER in TEAM", either part alone, or nothing', () => {
    expect(tokenHolder({ user: 'alice', team: 'Acme' })).toBe('as alice in Acme');
    expect(tokenHolder({ user: 'alice' })).toBe('as alice');
    expect(tokenHolder({ team: 'Acme' })).toBe('in Acme');
    expect(tokenHolder({})).toBe('');
    expect(tokenHolder({ user: '', team: '' })).toBe('');
  });
});

describe('saving a token', () => {
  it('a working token, pasted with spaces: saved trimmed, and says whose it is', async () => {
    const { answer, saved } = await save('  xoxb-test-token \n');
    expect(saved).toEqual(['xoxb-test-token']);
    expect(answer).toEqual({
      saved: true,
      ok: true,
      checked: true,
      message: 'Token saved. Connected to Acme as u0test in Trayshare Reference.',
      user: 'u0test',
      team: 'Trayshare Reference',
    });
  });

  it('a token the service refuses: not saved, and says so', async () => {
    const { answer, saved } = await save('xoxb-not-a-real-token');
    expect(saved).toEqual([]);
    expect(answer).toMatchObject({ saved: false, ok: false, checked: true, refused: true });
    expect(answer.message).toMatch(
      /^The service refused this token \(invalid_auth\), so it was not saved\. /,
    );
  });

  it('something that is not a token: refused, nothing saved', async () => {
    const saved: string[] = [];
    await expect(
      checkAndSaveToken(acme(), 'https://hooks.slack.com/services/T/B/X', {
        transport,
        save: async (t) => {
          saved.push(t);
        },
      }),
    ).rejects.toBeInstanceOf(RefusedError);
    expect(saved).toEqual([]);
  });

  it('the service cannot be reached: saved, but not checked, saying why', async () => {
    const { answer, saved } = await save('xoxb-test-token', {
      ...acme(),
      baseUrl: 'http://127.0.0.1:9',
    });
    expect(saved).toEqual(['xoxb-test-token']);
    expect(answer).toEqual({
      saved: true,
      ok: false,
      checked: false,
      message:
        'Token saved, but it could not be checked: 127.0.0.1:9 refused the connection: the service is not running there or the port is wrong.',
    });
  });

  it('the service has no auth.test: saved, and the first upload will tell', async () => {
    service.injectFault({ method: 'auth.test', fault: { kind: 'error', error: 'unknown_method' } });
    const { answer, saved } = await save('xoxb-test-token');
    expect(saved).toEqual(['xoxb-test-token']);
    expect(answer).toEqual({
      saved: true,
      ok: false,
      checked: false,
      message:
        'Token saved. This service cannot check a token without uploading; the first upload will tell.',
    });
  });
});
