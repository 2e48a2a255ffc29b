// `trayshare channels --workspace W [--json]`: what the token can see, with membership, fetched
// fresh (and saved in the CLI's conversation cache, which `send` resolves names through).
import type { Command } from 'commander';
import { displayName } from '../../core/conversations/channel-names';
import { unlistedMessage } from '../../portable/conversation-types';
import { dmPerson, personName } from '../../portable/people-names';
import { say } from '../terminal';

const KIND_LABEL = { public: 'public', private: 'private', dm: 'DM', 'group-dm': 'group DM' };

export function registerChannelsCommand(program: Command): void {
  program
    .command('channels')
    .description('List the channels and DMs the token can see, and whether the app is in them')
    .requiredOption('--workspace <name>', 'a saved workspace')
    .option(
      '--json',
      'one JSON array: [{"id","name","kind","isMember"}] (isMember null: the list did not say), a DM with its "user"',
    )
    .action(async (options: { workspace: string; json?: boolean }) => {
      const { openCliSettings, withService } = await import('../context');
      const workspace = openCliSettings().findWorkspace(options.workspace);
      const view = await withService((service) =>
        service.listConversations(workspace.id, { refresh: true, wait: true }),
      );
      if (view.problem) say(view.problem.message);
      // A partial list is still an answer: it says what is missing, and the command succeeds.
      if (view.unlisted) say(unlistedMessage(view.unlisted));
      // Without users:read the channels are still listed; DMs then show user IDs.
      if (view.peopleProblem) say(view.peopleProblem.message);
      const list = view.conversations ?? [];
      if (options.json) {
        // A DM is named after its person, as on screen; `user` keeps the ID.
        const named = list.map((c) => {
          const person = dmPerson(c, view.people);
          return person ? { ...c, name: personName(person) } : c;
        });
        process.stdout.write(`${JSON.stringify(named)}\n`);
      } else {
        for (const c of list) {
          const member =
            c.isMember === false
              ? '  (not a member: invite the app first)'
              : c.isMember === null
                ? '  (membership not listed)'
                : '';
          process.stdout.write(
            `${c.id}\t${displayName(c, view.people)}\t${KIND_LABEL[c.kind]}${member}\n`,
          );
        }
      }
      if (view.problem) process.exitCode = 1;
    });
}
