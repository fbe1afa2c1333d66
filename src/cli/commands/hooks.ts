// `vouch hooks install|uninstall|status|run|flush`: every agent session checked without anyone
// finding the log. install writes the agent's own hook configuration (see cli/hooks/agents.ts);
// the agent then runs `vouch hooks run <agent>` when a session ends, which queues the log and
// uploads it in the background to VOUCH_API_URL with the repo and branch of the working tree.
// Only commander is loaded here: the work lives in cli/hooks/actions.ts, imported when it runs.
import { Argument, Option, type Command } from 'commander';
import { HOOK_AGENT_IDS, type HookAgentId } from '../../domain/agents.ts';
import type { ScopeOptions } from '../hooks/actions.ts';

const actions = () => import('../hooks/actions.ts');
const agentArgument = () => new Argument('<agent>', HOOK_AGENT_IDS.join(', ')).choices([...HOOK_AGENT_IDS]);
const scopeOptions = (c: Command) =>
  c
    .addOption(new Option('--user', "the user's configuration (default)"))
    .addOption(new Option('--project', "this repository's configuration (commands name `npx --no-install vouch`, nothing machine-specific)"))
    .addOption(new Option('--via <how>', 'codex: a hooks.json hook (default; Codex asks you to trust it) or its notify program (chains to an existing one)').choices(['hooks', 'notify']))
    .addOption(new Option('--guard', 'the guard instead: a pre-tool hook running `vouch guard <agent>`, which denies or asks before a dangerous call runs'));

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description("check every agent session automatically: the agent's own session-end hook uploads its log");
  scopeOptions(hooks.command('install').description("add the upload hook to the agent's configuration").addArgument(agentArgument())).action(
    async (agent: HookAgentId, o: ScopeOptions) => {
      process.exitCode = await (await actions()).install(agent, o);
    },
  );
  scopeOptions(hooks.command('uninstall').description("remove the upload hook from the agent's configuration").addArgument(agentArgument())).action(
    async (agent: HookAgentId, o: ScopeOptions) => {
      process.exitCode = await (await actions()).uninstall(agent, o);
    },
  );
  hooks
    .command('status')
    .description('where the hook is installed and whether it will run (and if not, why and what to do), the server and key, uploads waiting or given up')
    .addArgument(new Argument('[agent]').choices([...HOOK_AGENT_IDS]))
    .option('--json', 'one JSON object')
    .option('--offline', 'do not contact the server')
    .action(async (agent: HookAgentId | undefined, o: { json?: boolean; offline?: boolean }) => {
      process.exitCode = await (await actions()).status(agent, o);
    });
  hooks
    .command('run')
    .description('(run by the agent) queue the session that just ended and upload it in the background')
    .addArgument(agentArgument())
    .argument('[payload]', "Codex notify's JSON argument")
    .option('--then <argv>', 'codex notify: the JSON argv of the notify program to run after (it gets the same argument)')
    .action(async (agent: HookAgentId, payload: string | undefined, o: { then?: string }) => {
      process.exitCode = await (await actions()).run(agent, payload, o); // always 0: never fail the agent
    });
  hooks
    .command('flush')
    .description('(internal) upload the queued sessions now')
    .action(async () => {
      process.exitCode = await (await actions()).flush();
    });
}
