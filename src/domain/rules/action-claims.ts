// integrity/action-claimed: the agent says it committed or pushed its work, and the log holds no
// commit or push at all. A reviewer merging on "written and committed" finds nothing in git. Only
// an action nobody even tried counts: a commit that failed or committed nothing is another story
// (the claim rules judge runs), and a subagent or a script may have committed where this log
// cannot see, so then nothing is said.
import { ACTIONS_UNRECORDED } from '../model/runs.ts';
import type { NormEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { Rule, RuleContext } from './types.ts';
import { effectsOf } from './effects.ts';
import { showsCommitSummary, gitSubcommand, parseArgs, showsPush } from './commands.ts';
import { meta, QUOTE_MAX, safe, setCapped } from './util.ts';

export const actionClaimed = meta({
  id: 'integrity/action-claimed',
  severity: 'warning',
  title: 'Claimed a commit or push that never ran',
  description: 'A message of the agent says the work was committed ("written and committed", "I\'ve committed the changes") or pushed ("pushed to GitHub"), and the session ran no `git commit` (or no `git push`) at all before it — no command, no git tool; a commit or push of Jujutsu, Mercurial, Sapling or Fossil counts as one (`jj describe`, `hg ci`, `sl pr submit`, `fossil commit` with its autosync). Not reported when a subagent worked in the session or a command that may commit on its own ran (a script or tool whose command line mentions commit or push, a tool that deploys or syncs to a code host such as an MCP `deploy_to_github`), for a hedged or future sentence ("ready to be committed", "once pushed"), or for database transactions.',
  remediation: 'Check `git log` and the remote: the work may exist only in the working tree.',
});

/** "written and committed", "I've committed the fix", "the changes were committed". */
const COMMITTED = /\b(?:i(?:'ve|\s+have)?\s+(?:now\s+|also\s+)?committed(?!\s+to\s+(?!git\b|the\s+repo|main\b|master\b))|(?:written|saved|created|added|updated|implemented|done)\s+and\s+committed|(?:was|were|is|are|has\s+been|have\s+been)\s+(?:now\s+|also\s+)?committed|committed\s+(?:it|them|this|these|all|everything|the\s+\w+|to\s+(?:git|the\s+repo\w*|main|master))\b)/i;
/**
 * "pushed to GitHub", "I've pushed the branch", "committed and pushed". Said of itself, the push
 * must be one of work or to a place: "I pushed.", "I pushed and opened a PR", "I pushed directly to
 * main", "I pushed the hotfix", "I pushed 3 commits", "I pushed the implementation to the feature
 * branch" — not "I pushed back on that", "I pushed the validation down into the parser", "I pushed
 * the timeout to 30 seconds", "I pushed the "Hype" button too hard".
 */
const PUSHED_WORK = String.raw`(?:changes?|commits?|branch(?:es)?|fix(?:es)?|hotfix(?:es)?|code|work|updates?|tags?|releases?|implementation|feature|patch(?:es)?|refactor(?:ing)?|edits?|files?|main|master|develop|v\d[\w.-]*)`;
const PUSHED_PLACE = String.raw`(?:origin|upstream|github|gitlab|bitbucket|remote|the\s+remote|main|master|develop|trunk|the\s+(?:[\w-]+\s+)?branch|(?:a|the|my|our)\s+(?:new\s+)?(?:branch|pr|pull\s+request|fork|repo\w*)|[\w./-]+\s+branch|[\w.-]*\/[\w./-]+)`;
/** What may follow a push of work: the sentence's end, or where it went, not where code was moved in the program ("into a helper", "down into the parser"). */
const PUSH_FOLLOWS = String.raw`(?=\s*(?:$|[.,;:!)—-])|\s+(?:to|and|on|from|with|for|as|upstream|so|which|that)\b|\s+up\b(?!\s+(?:into|to\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:client|caller|parent|component|layer|module|function|class|service|level|top|handler|helper|base|hook|context|store)\b)))`;
const PUSHED = new RegExp(String.raw`\b(?:i(?:'ve|\s+have)?\s+(?:now\s+|also\s+|just\s+)?pushed(?=\s*(?:$|[.,;:!)—-])|\s+(?:and|directly|straight|up(?:stream)?\b(?!\s+into)|to\s+${PUSHED_PLACE})|\s+(?:it|them|this|these|that|everything|all)${PUSH_FOLLOWS}|\s+(?:(?:the|my|our|a|an|both|all|your|\d+)\s+)?(?:\S+\s+){0,2}?${PUSHED_WORK}${PUSH_FOLLOWS})|(?:was|were|is|are|has\s+been|have\s+been)\s+(?:now\s+|also\s+)?pushed|committed\s+and\s+pushed|pushed(?:\s+(?:it|them|this|these|all|everything|the\s+\w+))?\s+to\s+(?:github|gitlab|the\s+remote|origin|main|master|the\s+repo\w*)\b)`, 'i');
/** Sentences that hedge, look ahead, ask, or speak of a database. */
const NOT_A_REPORT = /\b(?:not|never|if|once|when|unless|should|could|would|will|can|ready\s+to|to\s+be|need(?:s|ed)?\s+to|please|you|transactions?|sql|database|migration|offsets?|earlier|previously|before|already|last\s+(?:week|time|session))\b|n't\b|\?\s*$|\bby\s+(?!me\b|myself\b)\S/i;
/** Who did it: the sentence opens with the act (`Committed the fix.`) or the agent is its subject (`I've …`, `we …`). */
const FIRST_PERSON = /^(?:(?:[\s*_>#✅✔-]|\uFE0F)*|[^.]*\b(?:i|we|i've|we've|i have|we have)\s+(?:\w+\s+){0,3})$/i;
/** The work as the subject of a clipped report: "Spec written and committed", "All changes committed". */
const THE_WORK = /^(?:[\s*_>#✅✔-]|\uFE0F)*(?:(?:the|all|my|our)\s+)?(?:\w+\s+){0,2}(?:spec|changes?|fix(?:es)?|files?|code|work|docs?|design|plan|updates?|everything|it|all)\s+(?:(?:is|are|was|were|has\s+been|have\s+been)\s+)?$/i;
/** A commit or push of the work itself, in the passive (`the changes were committed`). */
const PASSIVE = /\b(?:was|were|is|are|has\s+been|have\s+been)\s+(?:now\s+|also\s+)?(?:committed|pushed)\b/i;
/** Aliases people give git commits and pushes (oh-my-zsh's `gcam`, `gp`): a commit the log cannot name. */
const GIT_ALIASES = /^(?:gc|gca|gcam|gcmsg|gcm|gcs|gp|gpf|gpsup|gpu|lazygit|gitui|tig)$/;
/** git's own subcommands that neither commit nor push; any other (an alias such as `git ci`) may. */
const GIT_QUIET = /^(?:status|log|diff|show|add|rm|mv|restore|checkout|switch|branch|fetch|pull|clone|init|config|remote|stash|tag|reset|rev-parse|ls-files|ls-remote|blame|grep|describe|reflog|worktree|submodule|clean|shortlog|cat-file|check-ignore|help|version|--version|merge-base|name-rev|for-each-ref|show-ref|symbolic-ref|fsck|gc|prune|notes|bisect|archive|apply|diff-tree|diff-index|rev-list)$/;

const OPEN_CALLS_MAX = 500;
const POLLS = /^(?:write_stdin|BashOutput|TaskOutput)$/;

interface Ledger {
  commits: boolean;
  pushes: boolean;
  /** A subagent worked, or a command that may commit or push by itself ran: the log may not show it. */
  unseen: boolean;
}

const REPLY_MAX = 20_000;

export const ACTION_CLAIM_RULES: Rule[] = [
  {
    metas: [actionClaimed],
    create(ctx) {
      const ledger: Ledger = { commits: false, pushes: false, unseen: false };
      let reply: { text: string; index: number } | null = null;
      let sawCall = false;
      const reported = new Set<string>();
      // shell calls whose results are still to come: only a command's output is git's own report
      const commandCalls = new Map<string, true>();
      // calls of tools that deploy or sync to a code host, until their results come
      const deploys = new Map<string, true>();
      const judge = () => {
        if (reply) judgeReply(ctx, reply, ledger, reported);
        reply = null;
      };
      return {
        onEvent(event, facts) {
          if (event.kind === 'message' && !event.agentId) {
            reply = reply ? { ...reply, text: (reply.text + '\n' + event.text).slice(-REPLY_MAX) } : { text: event.text.slice(-REPLY_MAX), index: event.index };
          } else if (event.kind === 'prompt' && !event.synthetic) {
            judge();
          } else if (event.kind === 'tool_result' && !event.denied && event.output && commandCalls.delete(event.callId)) {
            // git's own report of a command says it ran, whatever the command line the log shows
            // (a `gh repo create … --push` the terminal cut short, a wrapper script): a push's
            // `To <remote>` and its ref lines (a fetch prints ref lines too, under `From`), or a
            // commit's summary line
            if (showsPush(event.output)) ledger.pushes = true;
            if (showsCommitSummary(event.output)) ledger.commits = true;
          } else if (event.kind === 'tool_result' && deploys.delete(event.callId)) {
            // a tool that deploys or syncs to a code host and succeeded may have committed and
            // pushed where the log cannot see: as after a script that may commit, nothing is said
            if (!event.denied && !event.isError) ledger.unseen = true;
          } else if (event.kind === 'tool_call') {
            sawCall = true;
            if (deploysToCodeHost(event)) setCapped(deploys, event.callId, true, OPEN_CALLS_MAX);
            // a poll of a command still running (Codex's write_stdin, Claude Code's BashOutput) answers with its output too
            if (event.input.type === 'command' || POLLS.test(event.name)) setCapped(commandCalls, event.callId, true, OPEN_CALLS_MAX);
            // what was said before a call is judged against what had run by then
            judge();
            // once the log may hold commits it cannot show, nothing more is judged: no call needs reading
            if (!ledger.unseen) note(ledger, event, effectsOf(event, facts, ctx.session).commands.map((l) => l.cmd));
          } else if (event.kind === 'subagent_start' || event.kind === 'compaction' || (event.kind === 'system' && event.subtype === ACTIONS_UNRECORDED)) {
            // a subagent's work, a conversation carried on from before this log, or an answer
            // printed without its tool calls: commits it cannot show
            ledger.unseen = true;
          }
        },
        finish() {
          // plain text with no command in it is notes or prose, not an agent's turn: no claim to judge
          if (ctx.session.format === 'plain-text' && !sawCall) reply = null;
          judge();
        },
      };
    },
  },
];

/** `deploy_to_github`, `sync_repo`, `push_to_gitlab`: an MCP (or other) tool whose name's words are a sending verb and a code host. */
function deploysToCodeHost(event: NormEvent & { kind: 'tool_call' }): boolean {
  const tool = event.input.type === 'mcp' ? event.input.tool : event.input.type === 'other' ? event.name : '';
  // words of snake_case, kebab-case and camelCase names alike; a tool that only asks (`get_git_upload_status`) sends nothing
  const words = tool.replace(/Git(Hub|Lab)/g, 'git$1').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/);
  // a tool that only asks, or sends something else than code (an issue, a wiki page, a release)
  if (words.some((w) => /^(?:get|list|read|show|check|status|fetch|describe|view|find|search|issues?|wiki|releases?|comments?|labels?|discussions?|gists?|notes?)$/.test(w))) return false;
  return words.some((w) => /^(?:deploy|publish|sync|upload|push)$/.test(w)) && words.some((w) => /^(?:github|gitlab|bitbucket|git|repo|repository|gitea|codeberg)$/.test(w));
}

function note(ledger: Ledger, event: NormEvent & { kind: 'tool_call' }, commands: SimpleCommand[]): void {
  if (event.input.type === 'subagent') ledger.unseen = true;
  // a git tool of an MCP server (`git_commit`, `push_files`, GitHub's `create_or_update_file` commits too)
  if (/commit|create_or_update_file|update_file|delete_file/i.test(event.name)) ledger.commits = true;
  if (/push|create_or_update_file/i.test(event.name)) ledger.pushes = true;

  for (const cmd of commands) {
    const sub = cmd.name === 'git' ? gitSubcommand(cmd)?.sub : undefined;
    const other = otherVcsAct(cmd);
    if (sub === 'commit' || other === 'commit' || other === 'commit+push') ledger.commits = true;
    if (sub === 'push' || other === 'push' || other === 'commit+push') ledger.pushes = true;
    if (sub === 'commit' || sub === 'push' || other !== null) continue;
    if ((sub !== undefined && !GIT_QUIET.test(sub)) || GIT_ALIASES.test(cmd.name) || mayCommit(cmd) || (runsTask(cmd) && GIT_WORK.test(taskName(cmd)))) ledger.unseen = true;
  }
}

/**
 * A commit or push of another version-control system: Jujutsu (`jj commit`, `jj describe` — its
 * working copy is a commit already, so describing it is committing —, `jj new`, `jj squash`,
 * `jj git push`), Mercurial and Sapling (`hg commit`, `sl ci`, `hg push`, `sl pr submit`, `sl
 * ghstack`), Fossil (`fossil commit` also pushes under autosync, its default). Options before the
 * verb are skipped with their values (`jj -R ../app describe`, `hg --cwd ../app ci`).
 */
function otherVcsAct(cmd: SimpleCommand): 'commit' | 'push' | 'commit+push' | null {
  if (!/^(?:jj|hg|sl|fossil)$/.test(cmd.name)) return null;
  const words = parseArgs(cmd.args, VCS_VALUE_OPTIONS).operands;
  const verb = words[0] ?? '';
  if (cmd.name === 'jj') {
    if (/^(?:commit|ci|describe|desc|new|squash|split)$/.test(verb)) return 'commit';
    return verb === 'git' && words[1] === 'push' ? 'push' : null;
  }
  if (cmd.name === 'fossil') return /^(?:commit|ci)$/.test(verb) ? 'commit+push' : /^(?:push|sync)$/.test(verb) ? 'push' : null;
  if (/^(?:commit|ci|amend)$/.test(verb)) return 'commit';
  return /^(?:push|ghstack)$/.test(verb) || (verb === 'pr' && words[1] === 'submit') ? 'push' : null;
}
/** Options of jj, hg and sl that take a value (a repository, a folder, a config item, a message). */
const VCS_VALUE_OPTIONS = ['-R', '--repository', '--cwd', '--config', '--at-op', '--at-operation', '-m', '--message', '-r', '--revision'];

/** The sentence reports the act as the agent's: it opens with it, the agent is its subject, or it is said of the work in the passive. */
function reports(sentence: string, act: RegExp): boolean {
  const m = act.exec(sentence);
  if (!m) return false;
  const lead = sentence.slice(0, m.index);
  return PASSIVE.test(m[0]) || FIRST_PERSON.test(lead) || THE_WORK.test(lead) || /^i\b|^i've\b/i.test(m[0]);
}

/** A command line that names a commit or push itself (`lazygit`, `./commit.sh`, `gh pr merge --push`); text it prints or writes (echo, a heredoc) does not count. */
function mayCommit(cmd: SimpleCommand): boolean {
  if (/^(?:echo|printf|cat|tee)$/.test(cmd.name)) return false;
  return /commit|push|lazygit/i.test(cmd.name) || cmd.args.some((a) => a.length < 200 && /\b(?:commit|push)\b/i.test(a));
}

/** Task and script names that may end in a commit or push (`make release`, `npm run deploy`, `./sync.sh`). */
const GIT_WORK = /release|publish|deploy|ship|sync|save|\bgit|backup|snapshot|archive|version|changeset/i;

/** What a task is called: the script's own name and the target or script it is given (`release` of `make release`), no paths. */
function taskName(cmd: SimpleCommand): string {
  const own = cmd.name.replace(/^.*\//, '');
  const operands = cmd.args.filter((a) => !a.startsWith('-'));
  const target = /^(?:run|run-script|exec|x|dlx)$/.test(operands[0] ?? '') ? operands[1] : operands[0];
  return target && !target.includes('/') ? `${own} ${target}` : own;
}

/** A script or task runner (`make release`, `npm run deploy`, `./ship.sh`): what it runs, git included, is not in the log. */
function runsTask(cmd: SimpleCommand): boolean {
  const first = cmd.args.find((a) => !a.startsWith('-')) ?? '';
  if (/^(?:make|just|task|rake|npx|bunx|pnpx)$/.test(cmd.name) || /\.(?:sh|bash|zsh|py|js|mjs|ts|rb|pl|ps1)$/.test(cmd.name)) return true;
  if (/^(?:npm|pnpm|yarn|bun)$/.test(cmd.name)) return /^(?:run|run-script|exec|x|dlx)$/.test(first) || (cmd.name === 'yarn' && first !== '' && !/^(?:install|add|remove|upgrade)$/.test(first));
  return /^(?:bash|sh|zsh|python\d*(?:\.\d+)?|node|ruby|perl|pwsh|powershell)$/.test(cmd.name) && /\.(?:sh|bash|zsh|py|js|mjs|ts|rb|pl|ps1)$/.test(first);
}

function judgeReply(ctx: RuleContext, reply: { text: string; index: number }, ledger: Ledger, reported: Set<string>): void {
  if (ledger.unseen || !/committed|pushed/i.test(reply.text)) return;
  // quoted text (an instruction repeated, a message shown) is not the agent's report
  const own = reply.text.replace(/"[^"\n]*"|“[^”\n]*”|`[^`\n]*`|^>.*$/gm, '""');
  for (const raw of own.split(/(?<=[.!?])\s+|\n+/)) {
    const sentence = raw.trim();
    if (!sentence || NOT_A_REPORT.test(sentence)) continue;
    const what = !ledger.commits && reports(sentence, COMMITTED) ? 'commit' : !ledger.pushes && reports(sentence, PUSHED) ? 'push' : null;
    if (!what || reported.has(what)) continue;
    reported.add(what);
    ctx.report({
      rule: actionClaimed.id,
      detail: `The agent said "${safe(sentence, null, QUOTE_MAX)}", but no \`git ${what}\` ran in the session before it: nothing says the work is in git${what === 'push' ? ' on a remote' : ''}.`,
      evidence: [{ index: reply.index, excerpt: safe(sentence) }],
      key: what,
    });
  }
}
