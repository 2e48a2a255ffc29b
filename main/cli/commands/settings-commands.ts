// login, logout, workspaces, presets: the same settings file and keychain as the app.
import type { Command } from 'commander';
import type { Protocol } from '../../core/model';
import { addPresetFromText, login, logout } from '../settings-by-name';
import { readSecret, say } from '../terminal';
import { UsageError } from '../usage-error';
import { slackLogin, slackLogout } from './slack-login';

async function openCliSettings() {
  return (await import('../context')).openCliSettings();
}

function parseProtocol(value: string | undefined): Protocol | undefined {
  if (value === undefined || value === 'files.upload' || value === 'external') return value;
  throw new UsageError('--protocol is files.upload or external.');
}

export function registerSettingsCommands(program: Command): void {
  registerLoginCommands(program);
  registerWorkspacesCommand(program);
  registerPresetsCommands(program);
}

interface LoginOptions {
  workspace: string;
  baseUrl?: string;
  protocol?: string;
  slack?: boolean;
  clientId?: string;
  browser: boolean;
  timeout?: string;
  port?: string;
  yes?: boolean;
}

function registerLoginCommands(program: Command): void {
  program
    .command('login')
    .description(
      'Sign in with Slack (--slack), or save a workspace and its token; tokens go to the OS keychain only',
    )
    .requiredOption('--workspace <name>', 'a name for the workspace, e.g. Acme')
    .option(
      '--base-url <url>',
      'the service address, e.g. https://slack.com (needed the first time with a token)',
    )
    .option('--protocol <protocol>', 'files.upload (default) or external (Slack since 2025)')
    .option('--slack', 'sign in with Slack in the browser instead of pasting a token')
    .option('--client-id <id>', "with --slack: the team's Slack app client ID")
    .option('--no-browser', 'with --slack: print the sign-in link instead of opening a browser')
    .option('--timeout <seconds>', 'with --slack: how long to wait for the browser (default 300)')
    .option(
      '--port <ports>',
      'with --slack: the loopback port(s) the Slack app lists, tried in order (default 53682,53683,53684)',
    )
    .option(
      '--yes',
      'with --slack: keep the sign-in without asking whether the account that signed in is yours (for scripts)',
    )
    .action(async (options: LoginOptions) => {
      if (options.slack) {
        if (options.protocol)
          throw new UsageError('--protocol goes with a pasted token, not --slack.');
        await slackLogin(options);
        return;
      }
      if (options.clientId || !options.browser || options.timeout || options.port || options.yes) {
        throw new UsageError(
          '--client-id, --no-browser, --timeout, --port and --yes go with --slack.',
        );
      }
      const protocol = parseProtocol(options.protocol);
      const token = await readSecret(`Token for ${options.workspace}: `);
      const result = await login(await openCliSettings(), {
        workspace: options.workspace,
        token,
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(protocol ? { protocol } : {}),
      });
      say(
        `Saved ${result.workspace.name} (${result.workspace.baseUrl}); the token is in the OS keychain.`,
      );
      say(result.connection.message);
      if (result.connection.checked && !result.connection.ok) process.exitCode = 1;
    });

  program
    .command('logout')
    .description(
      "Remove a workspace's token from the keychain (signed in with Slack: revoke it there too)",
    )
    .requiredOption('--workspace <name>')
    .option('--even-if-waiting', 'sign out even while files still wait to be sent there')
    .action(async (options: { workspace: string; evenIfWaiting?: boolean }) => {
      const settings = await openCliSettings();
      const signedIn = settings.findWorkspace(options.workspace);
      if (signedIn.auth === 'slack') {
        await slackLogout(signedIn, options.evenIfWaiting === true);
        return;
      }
      const { workspace, removed } = await logout(settings, options.workspace);
      say(
        removed
          ? `Removed the token of ${workspace.name} from the keychain.`
          : `${workspace.name} had no token saved.`,
      );
    });
}

function registerWorkspacesCommand(program: Command): void {
  program
    .command('workspaces')
    .description('List saved workspaces')
    .option('--json')
    .action(async (options: { json?: boolean }) => {
      const snapshot = await (await openCliSettings()).getSnapshot();
      if (snapshot.settingsNotice) say(snapshot.settingsNotice);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(snapshot.workspaces)}\n`);
        return;
      }
      if (snapshot.workspaces.length === 0)
        say('No workspaces yet: add one with `trayshare login`.');
      for (const w of snapshot.workspaces) {
        const signedIn = w.signedIn
          ? `signed in as ${w.signedIn.user}${w.signedIn.expired ? ' (ran out: run login --slack again)' : ''}`
          : undefined;
        const token = signedIn ?? (w.hasToken ? 'token saved' : 'no token');
        process.stdout.write(`${w.name}\t${w.baseUrl}\t${w.protocol}\t${token}\n`);
      }
    });
}

function registerPresetsCommands(program: Command): void {
  const presets = program.command('presets').description('List, add or remove channel presets');
  presets
    .command('list', { isDefault: true })
    .option('--json')
    .action(async (options: { json?: boolean }) => {
      const snapshot = await (await openCliSettings()).getSnapshot();
      if (snapshot.settingsNotice) say(snapshot.settingsNotice);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(snapshot.presets)}\n`);
        return;
      }
      if (snapshot.presets.length === 0)
        say('No presets yet: add one with `trayshare presets add`.');
      for (const p of snapshot.presets) {
        const workspace = snapshot.workspaces.find((w) => w.id === p.workspaceId)?.name ?? '?';
        const mark = p.id === snapshot.defaultPresetId ? ' (default)' : '';
        const channels = p.channels
          .map((c) => (c.label ? `${c.label} (${c.id})` : c.id))
          .join(', ');
        process.stdout.write(`${p.name}${mark}\t${workspace}\t${channels}\t${p.comment}\n`);
      }
    });
  presets
    .command('add')
    .argument('<name>')
    .requiredOption('--workspace <name>')
    .requiredOption(
      '--channels <list>',
      "channels or people, by name or ID, comma-separated (e.g. 'C0123,#design,@alice,U0456'); names are looked up when the preset is used",
    )
    .option('--comment <text>', 'default comment', '')
    .option('--default', 'make it the default preset')
    .action(
      async (
        name: string,
        options: { workspace: string; channels: string; comment: string; default?: boolean },
      ) => {
        const preset = await addPresetFromText(await openCliSettings(), {
          name,
          workspace: options.workspace,
          channels: options.channels,
          comment: options.comment,
          makeDefault: options.default === true,
        });
        say(`Added preset ${preset.name}: ${preset.channels.map((c) => c.id).join(', ')}.`);
      },
    );
  presets
    .command('remove')
    .argument('<name>')
    .action(async (name: string) => {
      const settings = await openCliSettings();
      const preset = settings.findPreset(name);
      await settings.removePreset(preset.id);
      say(`Removed preset ${preset.name}.`);
    });
}
