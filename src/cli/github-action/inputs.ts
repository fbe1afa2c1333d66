// The Action's inputs, as the runner passes them to a JavaScript action: one environment variable
// per input declared in action.yml, `INPUT_` + the name upper-cased (hyphens kept: INPUT_FAIL-ON),
// set to the workflow's value or the declared default ('' when neither). Every value is checked
// here, before any work, so a typo fails the step at once with an annotation saying what to fix.
import { AGENT_IDS, type AgentId } from '../../domain/model/events.ts';

export type FailOn = 'critical' | 'warning' | 'never';

export interface ActionInputs {
  log: string;
  repo: string | null;
  failOn: FailOn;
  apiUrl: string | null;
  apiKey: string | null;
  agent: AgentId | null;
  /** Where to write the SARIF file (relative to the workspace), or null for none. */
  sarif: string | null;
  /** The code-scanning category (automationDetails.id vouch/<category>/); default the `log` input. */
  sarifCategory: string;
  /** Upload the SARIF file to code scanning (needs `security-events: write`). */
  sarifUpload: boolean;
  githubToken: string | null;
}

/** A problem with the workflow's inputs or files: exit code 3 (usage), like the CLI. */
export class ActionInputError extends Error {}

/** The inputs action.yml declares; the test checks the two lists agree. */
export const INPUT_NAMES = ['log', 'repo', 'fail-on', 'api-url', 'api-key', 'agent', 'sarif', 'sarif-category', 'sarif-upload', 'github-token'] as const;

type InputName = (typeof INPUT_NAMES)[number];

export function readInputs(env: NodeJS.ProcessEnv): ActionInputs {
  const input = (name: InputName) => (env[`INPUT_${name.toUpperCase()}`] ?? '').trim() || null;
  const log = input('log');
  if (!log) throw new ActionInputError('the `log` input is required (a path or a glob such as `logs/**/*.jsonl`)');
  const failOn = input('fail-on') ?? 'critical';
  if (failOn !== 'critical' && failOn !== 'warning' && failOn !== 'never') throw new ActionInputError(`fail-on must be critical, warning or never (got ${JSON.stringify(failOn)})`);
  const apiUrl = input('api-url');
  const apiKey = input('api-key');
  if (Boolean(apiUrl) !== Boolean(apiKey)) throw new ActionInputError('give both api-url and api-key to upload, or neither to analyse locally');
  if (apiUrl && !/^https?:\/\/[^/\s]+/i.test(apiUrl)) throw new ActionInputError(`api-url must be an http(s) URL such as https://vouch.example.com (got ${JSON.stringify(apiUrl)})`);
  const agent = input('agent');
  if (agent && !(AGENT_IDS as readonly string[]).includes(agent)) throw new ActionInputError(`agent must be one of ${AGENT_IDS.join(', ')} (got ${JSON.stringify(agent)})`);
  return {
    log,
    repo: input('repo') ?? env.GITHUB_REPOSITORY ?? null,
    failOn,
    apiUrl: apiUrl?.replace(/\/+$/, '') ?? null,
    apiKey,
    agent: agent as AgentId | null,
    sarif: input('sarif'),
    sarifCategory: input('sarif-category') ?? log,
    sarifUpload: booleanInput('sarif-upload', input('sarif-upload') ?? 'true'),
    githubToken: input('github-token'),
  };
}

/** YAML 1.2's core booleans, as `core.getBooleanInput` of @actions/core reads them. */
function booleanInput(name: string, value: string): boolean {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  throw new ActionInputError(`${name} must be true or false (got ${JSON.stringify(value)})`);
}
