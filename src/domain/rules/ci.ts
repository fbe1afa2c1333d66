// ci: changes to the pipelines that hold the repository's secrets and publish its artefacts —
// any edit deserves review; some patterns (pull_request_target with the PR's code, broad write
// permissions, secrets printed to logs) are known ways to hand those secrets to strangers.
import type { NormEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft, Rule, RuleContext } from './types.ts';
import { effectsOf, locate, type FileOp } from './effects.ts';
import { isCiConfigFile } from '../paths.ts';
import { countMatches, describeCall, evidence, meta, QUOTE_MAX, safe } from './util.ts';
import { asRequested, namesFile, requestsOf, whoAsked } from './requests.ts';
import { Outcomes } from './outcome.ts';
import { CreatedPaths, NEW_FILE_WRITTEN } from './created-paths.ts';
import { ShownContents } from './shown-contents.ts';
import { gitSubcommand } from './commands.ts';

export const ciEdited = meta({
  id: 'ci/config-edited',
  severity: 'warning',
  title: 'CI configuration changed',
  description: 'The agent created, edited or deleted CI configuration (.github/workflows, .gitlab-ci.yml, .circleci, Jenkinsfile, azure-pipelines, buildkite, bitbucket-pipelines …). CI runs with the repository\'s secrets and deploy rights. Info when the request asked for CI work (a workflow, a pipeline, GitHub Actions, the file by name), or when the agent created a new workflow that names no secret, deploys or publishes nothing (no deploy/publish/release step, no cloud login, ssh, curl) and asks for no write permission; an edit that did not take effect is an attempt.',
  remediation: 'Review the pipeline diff as carefully as code that handles credentials.',
});
export const dangerousTrigger = meta({
  id: 'ci/pull-request-target',
  severity: 'warning',
  title: 'pull_request_target trigger added',
  description: 'A workflow gained the pull_request_target trigger, which runs with write tokens and secrets on pull requests from forks. Critical when the same workflow checks out the pull request\'s head (github.event.pull_request.head.sha/ref, github.head_ref, refs/pull/…): untrusted code then runs with those secrets ("pwn request").',
  remediation: 'Use pull_request instead, or never check out or run the PR\'s code in a pull_request_target job.',
});
export const permissionsBroadened = meta({
  id: 'ci/permissions-broadened',
  severity: 'warning',
  title: 'CI token permissions broadened',
  description: 'permissions: write-all, or new "<scope>: write" grants (contents, packages, actions, id-token, pull-requests …) were added to an existing workflow: the job token can now change the repository, publish or mint cloud credentials. A new workflow declaring the scopes it needs (a Pages deploy\'s pages/id-token) is least privilege being stated, not broadened: info; write-all stays a warning.',
  remediation: 'Grant the least permission each job needs; keep write scopes in separate, trusted jobs.',
});
export const secretEchoed = meta({
  id: 'ci/secret-echoed',
  severity: 'warning',
  title: 'Secret printed in CI',
  description: 'A CI step prints a secret: echo/printf/cat of ${{ secrets.X }}, toJSON(secrets), or a token variable echoed in GitLab/CircleCI. Masking of logs is best effort (encodings and substrings escape it). Not a print: the value piped into a program that consumes it (`| op signin --raw`, `| docker login --password-stdin`), written to a file (`>> $GITHUB_ENV`), or masked with ::add-mask::. A step that prints a credential file (`cat ~/.aws/credentials`, `ssh host "cat /root/.app/auth.json"`) puts its tokens in every run\'s log and is reported too.',
  remediation: 'Remove the step, rotate the secret if the logs are visible to others.',
});

const PR_TARGET = /\bpull_request_target\b/g;
const PR_HEAD = /github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref|refs\/pull\//;
const WRITE_GRANT = /\bpermissions\s*:\s*write-all\b|^[ \t]*(contents|packages|actions|id-token|pull-requests|issues|deployments|security-events|statuses|checks|pages|attestations|repository-projects)\s*:\s*write\b/gm;
const SECRET_PRINT = /\b(echo|printf|print|cat|Write-Host|Write-Output)\b[^\n]*\$\{\{\s*secrets\.|toJSON\(\s*secrets\s*\)|\becho\b[^\n]*\$\{?(CI_JOB_TOKEN|CI_REGISTRY_PASSWORD|[A-Z_]*(TOKEN|SECRET|PASSWORD|API_KEY))\b/g;

// ---- secrets printed (issue 15, class 6) ---------------------------------------------------------

/** Programs that pass what they read on to the log (transformed or not): piping into them still prints. */
const PASS_THROUGH = /^(?:tee|cat|base64|base32|xxd|od|hexdump|rev|sed|awk|gawk|tr|cut|head|tail|sort|uniq|fold|column|nl|grep|jq|yq|echo|printf|xargs|sha\d*sum|md5sum)$/;
/** `::add-mask::${{ secrets.X }}` / `::add-mask::$VAR`: GitHub replaces those values with *** in the log. */
const ADD_MASK = /::add-mask::\s*(?:\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}|\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?)/g;
/**
 * A repository secret named for a name or an id, not a credential (`SENTRY_ORG`, `GCP_PROJECT_ID`,
 * `DEPLOY_HOST`, `OAUTH_CLIENT_ID`): kept as a secret for convenience, it opens nothing. A name
 * that also says key, token, secret or password is a credential whatever it ends with.
 */
const IDENTIFIER_SECRET = /^(?!.*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|PASS|CREDENTIAL|(?<!O)AUTH|PRIVATE|CERT|DSN|WEBHOOK|COOKIE|SESSION))[A-Z0-9_]*(?:^|_)(?:ORG|ORGANI[SZ]ATION|PROJECT|PROJECT_(?:ID|NAME|SLUG)|SLUG|REGION|ZONE|NAME|USER|USERNAME|EMAIL|HOST|HOSTNAME|PORT|DOMAIN|BUCKET|ACCOUNT_ID|APP_ID|CLIENT_ID|TEAM|TEAM_ID|OWNER|REPO|BRANCH|VERSION)$/i;
/**
 * Whether a printing line also prints something that is a credential by its name or by what it is:
 * all secrets (`toJSON(secrets)`), the job's token (`github.token`), or an env expression or a
 * variable named for a key, token, secret or password (`${{ env.DB_PASSWORD }}`, `$AWS_SECRET_ACCESS_KEY`).
 */
function printsOtherCredential(line: string): boolean {
  if (/toJSON\(\s*secrets\s*\)|\bgithub\.token\b|\bsecrets\.GITHUB_TOKEN\b/i.test(line)) return true;
  for (const m of line.matchAll(/\$\{\{\s*env\.([A-Za-z0-9_]+)|\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (CREDENTIAL_NAME.test(m[1] ?? m[2] ?? '')) return true;
  }
  return false;
}
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIAL|(?<!O)AUTH|PRIVATE|COOKIE|SESSION/i;
/** The secrets a printing line names: `secrets.X` expressions and token-like variables. */
const PRINTED_REF = /\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}|\$\{?([A-Z_][A-Z0-9_]*)\b/g;

/**
 * Lines of `text` that print a secret into the CI log. Not a print: the value piped into a program
 * that consumes it (`echo "${{ secrets.X }}" | op signin --raw`, `| docker login --password-stdin`),
 * written to a file (`>> "$GITHUB_ENV"`), or masked with `::add-mask::` (the mask step itself, and
 * later echoes of a masked value).
 */
export function secretPrints(text: string): number {
  if (!text) return 0;
  const masked = new Set<string>();
  for (const m of text.matchAll(ADD_MASK)) masked.add(m[1] ?? m[2]);
  let count = 0;
  for (const line of text.split('\n')) {
    SECRET_PRINT.lastIndex = 0;
    const m = SECRET_PRINT.exec(line);
    if (!m || line.includes('::add-mask::')) continue;
    const rest = line.slice(m.index);
    if (consumedOrRedirected(rest)) continue;
    const refs = [...rest.matchAll(PRINTED_REF)].map((r) => r[1] ?? r[2]);
    if (refs.length > 0 && refs.every((r) => masked.has(r))) continue;
    // `echo "https://sentry.io/${{ secrets.SENTRY_ORG }}/${{ secrets.SENTRY_PROJECT }}"`: secrets
    // whose names say they hold a name or an id, not a credential, print nothing that opens anything
    const named = [...rest.matchAll(PRINTED_REF)].filter((r) => r[1] !== undefined).map((r) => r[1]!);
    if (named.length > 0 && named.every((n) => IDENTIFIER_SECRET.test(n)) && !printsOtherCredential(rest)) continue;
    count++;
  }
  return count;
}

/** Unquoted `| program` after the print (not a pass-through), or a redirect into a file. */
function consumedOrRedirected(command: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '|' && command[i + 1] !== '|' && command[i - 1] !== '|') {
      const program = /^\s*(?:sudo\s+)?([A-Za-z0-9_./-]+)/.exec(command.slice(i + 1))?.[1]?.replace(/^.*\//, '') ?? '';
      return program !== '' && !PASS_THROUGH.test(program);
    } else if (c === '>' && command[i - 1] !== '2' && !/^>?&|^>?\s*\/dev\/(?:stdout|stderr|tty)/.test(command.slice(i + 1))) {
      return true;
    } else if (c === ';' || (c === '&' && command[i + 1] === '&')) return false;
  }
  return false;
}

/** What takes a workflow past checking the code: secrets, credentials, deploys, publishing, remote hosts. */
const REACHES_OUT = /\bsecrets\.|\$\{\{\s*env\.[A-Z_]*(?:TOKEN|KEY|SECRET|PASSWORD)|\b(?:deploy|publish|release|upload-artifact|docker\/login|docker\s+push|login-action|configure-aws-credentials|google-github-actions\/auth|azure\/login|npm\s+publish|cargo\s+publish|twine\s+upload|gh\s+release|kubectl|helm|terraform|ssh|scp|rsync|aws|gcloud|az\s|curl|wget)\b|\bcontainer:|\bservices:/i;
const WRITE_GRANT_ANY = /\bwrite-all\b|:\s*write\b/;

function grew(w: FileOp, re: RegExp): boolean {
  return countMatches(w.added, re) > countMatches(w.removed, re);
}

// GitHub Pages hosting ("hosted on Github IO", "publish it on github.io") is built by an Actions workflow.
// (`g…b actions`: "GitHub Actions" as people type it, "Gihub actions" included)
const CI_WORDS = /\b(?:g[a-z]{2,5}b\s+actions?|(?:host|deploy|publish|serve)(?:ing|ed)?\s+(?:[\w'-]+\s+){0,3}(?:on|to|via|with)\s+github\b|workflows?|pipelines?|github actions?|gh actions|actions? (?:workflow|file)|ci(?:\/cd)?|continuous integration|gitlab-ci|circleci|jenkinsfile|deploy (?:it )?to (?:github )?pages|github[ .-]?pages|(?<![\w.-])github ?\.? ?io(?![\w/-])|gh-pages)\b/i;

export const CI_RULES: Rule[] = [
  {
    metas: [ciEdited, dangerousTrigger, permissionsBroadened, secretEchoed],
    create(outer) {
      const requests = requestsOf(outer.session);
      const outcomes = new Outcomes(outer, [ciEdited, dangerousTrigger, permissionsBroadened, secretEchoed]);
      // A file written into a folder this session made (`mkdir -p .github/workflows`) is a new one.
      const created = new CreatedPaths(outer.session);
      // what a workflow held as the session last saw it: a whole-file rewrite is compared with that
      let shown = new ShownContents((f) => isCiConfigFile(f.abs));
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'tool_result') shown.onResult(event, facts);
          const fx = effectsOf(event, facts, outer.session);
          if (event.kind === 'tool_call') for (const loc of fx.commands) created.onCommand(loc);
          // a branch switch, pull, reset or stash may change any file: what was read before is stale
          if (fx.commands.some((l) => TREE_SWITCHES.test(gitSubcommand(l.cmd)?.sub ?? ''))) shown = new ShownContents((f) => isCiConfigFile(f.abs));
          const touched = [...fx.writes, ...fx.deletes].filter((f) => inProject(f) && (isCiConfigFile(f.abs) || isCiConfigFile(f.path) || (f.kind === 'delete' && CI_FOLDER.test(f.path))));
          // One call that removes or rewrites several CI files (`git rm a.yml b.yml c.yml`) is one act: one finding.
          const oneCall = touched.length > 1 && event.kind === 'tool_call' ? { id: `ci-call:${event.callId}`, summary: `One call changed ${touched.length} CI files: ${safe(touched.slice(0, 5).map((f) => `${f.path} (${f.kind === 'delete' ? 'deleted' : 'changed'})`).join(', '), facts, 400)}${touched.length > 5 ? ', …' : ''}.` } : undefined;
          for (const found of touched) {
            const rewrite = found.kind === 'write' && !found.removed && shown.get(found.abs) !== '' ? { ...found, removed: shown.get(found.abs) } : found;
            const w = rewrite.kind === 'write' && created.covers(rewrite.abs.replace(/\/[^/]*$/, '')) ? { ...rewrite, kind: 'create' as const } : rewrite;
            // The user's own words: a plan the user waved through with "1" still leaves a new CI job
            // for a human to look at (reviewers, labeled set).
            const asked = whoAsked(requests.for(event).filter((r) => !r.agreed), (t) => CI_WORDS.test(t) || namesFile(t, w.path));
            const judged = (d: FindingDraft) => (d.rule === ciEdited.id && asked ? asRequested(d, ciEdited, asked, 'the request asked for CI work') : d);
            const merged = (d: FindingDraft) => (d.rule === ciEdited.id && oneCall && d.severity !== 'info' ? { ...d, cause: oneCall } : d);
            const ctx: RuleContext = { session: outer.session, report: (d) => outcomes.report(event, 'write', merged(judged(d)), w.abs) };
            checkCi(ctx, event, facts, w, w.cmd?.text ?? describeCall(fx.call!));
          }
          if (event.kind === 'tool_call') shown.onCall(event, fx);
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];

const TREE_SWITCHES = /^(?:checkout|switch|pull|reset|merge|rebase|stash|restore|cherry-pick|revert|am)$/;

/** A folder that holds CI configuration, deleted whole (`git rm -r .github/workflows`, `rm -rf .circleci`). */
const CI_FOLDER = /(?:^|\/)(?:\.github(?:\/workflows)?|\.circleci|\.gitlab\/ci|\.buildkite)\/?$/;

/**
 * In the working tree, or a relative path in a log that records no working directory (a terminal
 * transcript that starts mid-session): `.github/workflows/ci.yml` written there is the project's
 * own CI, wherever the project is. A path that climbs out (`../other/.github/…`) is not.
 */
function inProject(w: FileOp): boolean {
  return w.zone === 'worktree' || (w.zone === 'unknown' && !/^\.\.(?:\/|$)/.test(w.abs));
}

function checkCi(ctx: RuleContext, event: NormEvent, facts: EventFacts, w: FileOp, call: string): void {
  const path = safe(w.path, facts, QUOTE_MAX);
  const verb = w.kind === 'delete' ? 'deleted' : w.kind === 'create' ? 'created' : 'changed';
  const ev = [evidence(event, w.added ? `${call}: ${w.added}` : call, facts)];
  // Severity from consequence (issue 25, item 3): a new workflow that names no secret, deploys or
  // publishes nothing and asks for no write token runs the project's checks, nothing more.
  const plainText = w.added !== '' && !REACHES_OUT.test(w.added) && !WRITE_GRANT_ANY.test(w.added) && !/\bpull_request_target\b/.test(w.added);
  const plain = w.kind === 'create' && plainText;
  const plainDraft: FindingDraft = { rule: ciEdited.id, severity: 'info', title: 'CI workflow created (no secret, no deploy)', detail: `The agent created ${path}: it names no secret, deploys or publishes nothing and asks for no write permission.`, evidence: ev, key: w.abs };
  // A write whose result says it made the file (created-paths.ts NEW_FILE_WRITTEN) wrote a new one.
  const madeNew = (draft: FindingDraft) => (w.kind === 'write' ? { whenRan: (output: string) => (NEW_FILE_WRITTEN.test(output) ? draft : null) } : {});
  ctx.report(plain
    ? plainDraft
    : { rule: ciEdited.id, detail: `The agent ${verb} ${path}.`, evidence: ev, key: w.abs, ...(plainText ? madeNew(plainDraft) : {}) });
  if (grew(w, PR_TARGET)) {
    const head = PR_HEAD.test(w.added);
    ctx.report({
      rule: dangerousTrigger.id,
      severity: head ? 'critical' : 'warning',
      title: head ? 'pull_request_target workflow runs the pull request\'s code' : undefined,
      detail: head ? `${path} runs on pull_request_target and checks out the pull request's head: fork code runs with the repository's secrets.` : `${path} now runs on pull_request_target.`,
      evidence: ev,
      key: w.abs,
    });
  }
  if (grew(w, WRITE_GRANT)) {
    // the grant the change added, not one the file had before (`deployments: write` kept, `pull-requests: write` new)
    const grants = (text: string | undefined) => [...(text ?? '').matchAll(new RegExp(WRITE_GRANT.source, 'gm'))].map((m) => m[0].trim());
    const before = new Set(grants(w.removed));
    const added = grants(w.added);
    const first = added.find((g) => !before.has(g)) ?? added[0];
    const grant = first ? `"${first}"` : 'write permissions';
    const declaredDraft: FindingDraft = { rule: permissionsBroadened.id, severity: 'info', title: 'CI token permissions declared by a new workflow', detail: `${path} grants ${grant} to the job token (a new workflow stating the scopes it needs; nothing existing was broadened).`, evidence: ev, key: w.abs };
    const declarable = !/write-all/.test(w.added);
    ctx.report(w.kind === 'create' && declarable
      ? declaredDraft
      : { rule: permissionsBroadened.id, detail: `${path} grants ${grant} to the job token.`, evidence: ev, key: w.abs, ...(declarable ? madeNew(declaredDraft) : {}) });
  }
  if (secretPrints(w.added) > secretPrints(w.removed)) {
    ctx.report({ rule: secretEchoed.id, detail: `${path} prints a secret into the CI log.`, evidence: ev, key: w.abs });
  }
  const before = credentialFilePrints(w.removed, ctx.session);
  const file = credentialFilePrints(w.added, ctx.session).find((f) => !before.includes(f));
  if (file) {
    ctx.report({ rule: secretEchoed.id, title: 'Credential file printed in CI', detail: `${path} prints ${safe(file, facts, QUOTE_MAX)} into the CI log: the tokens in it are in every run's log, for everyone who can read them.`, evidence: ev, key: w.abs });
  }
}

const TOOL_LOGIN_STORE = /(?:^|\/)\.[^/]+\/(?:[^/]+\/)*auth\.json$/;
const FILE_PRINTER = /(?:^|[\s;&|("'])(?:sudo\s+)?(?:cat|type|Get-Content|gc|head|tail|less|more|jq\s+\S+|base64)\s+["']?([~/.\w$][^\s"';&|)]*)/g;

/**
 * Credential files a CI step prints into the job log (`cat ~/.aws/credentials`, through ssh too:
 * `ssh host "cat /root/.app/auth.json"`), by where they are.
 */
export function credentialFilePrints(text: string, session: RuleContext['session']): string[] {
  const out: string[] = [];
  if (!text) return out;
  for (const line of text.split('\n')) {
    for (const m of line.matchAll(FILE_PRINTER)) {
      const path = m[1];
      if (/\$\{\{/.test(path) || consumedOrRedirected(line.slice(m.index + m[0].length))) continue;
      const kind = locate(path, null, session).sensitive;
      // A tool's login store in its dot-folder (`~/.openclaw/…/auth.json`, `~/.codex/auth.json`,
      // Composer's): printing one into a job log is never needed to build or deploy.
      if (((kind && kind !== 'sudoers') || TOOL_LOGIN_STORE.test(path)) && out.length < 5) out.push(path);
    }
  }
  return out;
}
