// One process of the cross-process settings test (test/settings/across-processes.test.ts),
// spawned several times at once: it opens the settings the way the CLI does (conf, the real
// keychain under the test's own service name, the Node transport), says `ready`, waits for a
// `go` line on its input so every process starts changing at the same moment, makes its changes
// one after the other, and prints one JSON line: how many changes it made, or the first error.
//   settings-driver.ts DIR SERVICE presets PREFIX WORKSPACE_ID COUNT
//     adds PREFIX-1 … PREFIX-COUNT, or fewer when a `stop` line comes first
//   settings-driver.ts DIR SERVICE workspaces COUNT
//     removes gone-1 … gone-COUNT and moves move-N to https://moved-N.example, in turn
//   settings-driver.ts DIR SERVICE read
//     reads the settings once (repairing a broken file), so `changes` is 0

import { createKeychainStore } from '../../main/core/secrets/keychain-store';
import { openSettingsService } from '../../main/core/settings/settings-service';
import { createNodeTransport } from '../../main/core/upload/node-transport';
import { errorMessage } from '../../main/portable/error-message';

const [dir, service, role, ...rest] = process.argv.slice(2) as [
  string,
  string,
  string,
  ...string[],
];
const settings = openSettingsService({
  dir,
  secrets: createKeychainStore({ service }),
  transport: createNodeTransport(),
});

let stopped = false;

async function presets(prefix: string, workspaceId: string, count: number): Promise<number> {
  let added = 0;
  while (added < count && !stopped) {
    await settings.addPreset({
      name: `${prefix}-${added + 1}`,
      workspaceId,
      channels: [{ id: 'C0GENERAL' }],
      comment: '',
    });
    added++;
    // Lets a `stop` line in: the change above resolves without waiting for any input or output.
    await new Promise((r) => setImmediate(r));
  }
  return added;
}

async function workspaces(count: number): Promise<number> {
  for (let i = 1; i <= count; i++) {
    await settings.removeWorkspace(settings.findWorkspace(`gone-${i}`).id);
    await settings.updateWorkspace(settings.findWorkspace(`move-${i}`).id, {
      baseUrl: `https://moved-${i}.example`,
    });
  }
  return count * 2;
}

function readOnce(): number {
  settings.read();
  return 0;
}

async function run(): Promise<void> {
  try {
    const changes =
      role === 'read'
        ? readOnce()
        : role === 'presets'
          ? await presets(rest[0]!, rest[1]!, Number(rest[2]))
          : await workspaces(Number(rest[0]));
    process.stdout.write(`${JSON.stringify({ ok: true, changes })}\n`);
  } catch (error) {
    const message = errorMessage(error);
    process.stdout.write(`${JSON.stringify({ ok: false, error: message })}\n`);
  }
  process.stdin.destroy();
}

// Opened (and, unless it is to read a broken file at `go`, read once) before `go`, so loading
// modules is not part of the race.
if (role !== 'read') settings.read();
let input = '';
let started = false;
process.stdin.on('data', (chunk) => {
  input += chunk;
  const lines = input.split('\n');
  if (!started && lines.includes('go')) {
    started = true;
    void run();
  }
  if (lines.includes('stop')) stopped = true;
});
process.stdout.write('ready\n');
