// scope/live-system-changed (issue 25, item 7): work that reached a live system the user did not
// ask to change — a production deploy, migrations applied to the live database, a production
// cluster patched or restarted, services restarted on a production host. People outside the
// session see such a change at once, and it is undone by another change to the same system, not
// by a revert in the tree. Deletions there are destructive's (infra-destroy, destructive-sql);
// this rule is for the changes that keep the system running, differently.
//
// Judged by evidence, not by tool: a row says when its command reaches production (a flag that
// means it, `vercel --prod`, `supabase db push` without `--local`, `wrangler d1 migrations apply
// --remote`, or a production name in its words: `--context prod-eu`, `RAILS_ENV=production`,
// `-s production`, a host called `prod-api`); a staging, preview, dev or local name in an option
// that says where it acts (context, namespace, environment, app, project, stack) says it does not. What the
// request asked for — the act itself (to deploy or push live, to run migrations, to restart or roll
// out, to apply infrastructure) or the command word for word, also in a proposal the user agreed
// to — is the user's change: info "as requested"; naming the code involved asks for nothing. A
// command that failed or was refused changed nothing live: an "(attempted)" info.
import type { ToolCallEvent } from '../model/events.ts';
import type { SimpleCommand } from '../shell/types.ts';
import type { EventFacts, FindingDraft, Rule, SessionFacts } from './types.ts';
import { CommandTable, hasFlag, type Row as TableRow } from './command-table.ts';
import { optionValues, parseArgs, type ParsedArgs } from './commands.ts';
import { effectsOf, type Located } from './effects.ts';
import { findDestructiveSql, sqlSent } from './destructive.ts';
import { lastStep, Outcomes } from './outcome.ts';
import { asRequested, dictates, requestsOf, whoAsked } from './requests.ts';
import { serviceTeardown, serviceTool } from './destructive-services.ts';
import { capitalise, evidence, meta, QUOTE_MAX, safe } from './util.ts';

export const liveSystemChanged = meta({
  id: 'scope/live-system-changed',
  severity: 'warning',
  title: 'Live system changed without a request',
  description: 'A command changed a production system the request did not ask to change: a production deploy (`vercel --prod`, `netlify deploy --prod`, `fly deploy`, `firebase deploy`, `wrangler deploy`, `gcloud run|app|functions deploy`, `railway up`, `kamal deploy`, `eb deploy`, `heroku config:set`, `aws lambda update-function-code`, `aws ecs update-service`; a staging, preview, dev or local name in an option that says where it acts — context, namespace, environment, app, project, stack — says it is not production), the variables or secrets a production service runs with changed (`vercel env add|rm … production`, `netlify env:set|unset`, `railway variables --set`, `gcloud run services update`, `aws lambda update-function-configuration`), migrations applied to the live database (`supabase db push` without `--local`, `supabase migration up --linked`, `wrangler d1 migrations apply --remote`; Prisma, Rails, Django, Alembic, Knex, Sequelize, Drizzle, dbmate, goose or Flyway migrations with a production name in the command or its environment), a production Kubernetes cluster changed (`kubectl apply|patch|set|scale|edit|exec|rollout restart …` or `helm upgrade|install|rollback` with a production context or namespace, also after `kubectl config use-context prod…` or a `kubectl config current-context` that answered a production context), infrastructure applied to a production stack (`terraform apply`, `pulumi up` with a production workspace, stack or var file, also after `terraform workspace select production` or `pulumi stack select prod`), services restarted over ssh on a production host, or DDL (`CREATE OR REPLACE FUNCTION`, `ALTER TABLE`, `DROP FUNCTION`, `GRANT` …) sent to a database on another machine — over ssh, `psql -h <host>` or a connection URL; a local, staging, dev or test host is not the live one — outside any migration. Info "as requested" when the request (or a proposal the user agreed to) asked for the act itself (to deploy or push live, set or change the service\'s variables or secrets, run migrations, restart or roll out, apply infrastructure, run SQL, or make, fix or drop one of the database\'s objects) or dictated the command; an "(attempted)" info when the command failed or was refused. Dry runs, previews and plans change nothing and are not reported; deletions are destructive/infra-destroy\'s and destructive/destructive-sql\'s.',
  remediation: 'Check the live system (the deployed version, the applied migrations, the cluster\'s rollout history) and roll back what was not meant to ship.',
});

type Kind = 'deploy' | 'config' | 'migration' | 'cluster' | 'infra' | 'service' | 'schema';

interface View extends ParsedArgs {
  args: string[];
  assignments: string[];
  /** The session selected a production target for this tool earlier (`kubectl config use-context prod`, `terraform workspace select production`, `pulumi stack select prod`). */
  selectedProd: boolean;
}

interface Row extends TableRow<View> {
  kind: Kind;
  /** What reached production, for the finding's detail. */
  what: string;
}

/** A production name in a word: `prod`, `production`, `prd`, as a word of its own (`prod-eu`, `envs/production`), not inside one (`product`). */
const PROD = /(?:^|[^a-z0-9])(?:prod|production|prd)(?:[^a-z0-9]|$)/i;
/** A name that says the target is not production. */
const NOT_PROD = /(?:^|[^a-z0-9])(?:staging|stage|stg|dev|development|preview|test|testing|qa|sandbox|local|localhost|127\.0\.0\.1|demo|branch-deploy|localstack)(?:[^a-z0-9]|$)|^branch:/i;
const DRY = /^--?(?:dry-?run|preview|plan|diff|check)(?:=(?!none$).*)?$/i;
/**
 * Options that say where a command acts — its context, namespace, environment, app, project,
 * stack, stage, database, settings or variables file. Only these (and the environment's
 * assignments) can say a target is not production: `--local-only` or an image tagged `:dev` do not.
 */
const TARGET_OPTS = ['--context', '--kube-context', '--cluster', '-n', '--namespace', '--env', '-e', '--environment', '-a', '--app', '-s', '--stack', '-P', '--project', '--project-ref', '--stage', '--db-url', '--database-url', '-c', '--config', '--settings', '--site', '-chdir', '-var-file', '--workspace', '--target', '--function-name', '--service', '--profile', '--endpoint-url'];

/** The values of the target options (`--context prod-eu`, `--env=staging`, terraform's `-chdir=envs/prod`) and of the command's assignments. */
function targets(v: View): string[] {
  const out: string[] = v.assignments.map((a) => a.replace(/^[^=]*=/, ''));
  v.args.forEach((a, i) => {
    const eq = a.indexOf('=');
    if (eq > 0 && TARGET_OPTS.includes(a.slice(0, eq))) out.push(a.slice(eq + 1));
    else if (TARGET_OPTS.includes(a) && i + 1 < v.args.length) out.push(v.args[i + 1]!);
  });
  // Lambda's `--environment Variables={…}` is the function's variables, not a target: their values say nothing of where it runs
  return out.filter((t) => !/^Variables=/.test(t));
}

const prodNamed = (v: View): boolean => v.args.some((a) => PROD.test(a)) || v.assignments.some((a) => PROD.test(a));
/** A target option names staging, a preview, a dev or local target, and none names production. */
const notProdTarget = (v: View): boolean => {
  const t = targets(v);
  return t.some((x) => NOT_PROD.test(x)) && !t.some((x) => PROD.test(x));
};
/** Production unless a target option names a staging or preview target: tools whose default target is the live one. */
const liveByDefault = (v: View): boolean => !notProdTarget(v);
/** Production only when the command, its environment or a target the session selected says so. */
const prodEvidence = (v: View): boolean => (prodNamed(v) || v.selectedProd) && !notProdTarget(v);
/** kubectl's own `--context`, when given, replaces the selected one. */
const k8sProd = (v: View): boolean => (prodNamed(v) || (v.selectedProd && !v.args.some((a) => /^--(?:kube-)?context(?:=|$)/.test(a)))) && !notProdTarget(v);
/** `vercel --target=production` is `vercel --prod`. */
const vercelProd = (v: View): boolean => hasFlag('--prod', '--production')(v) || targets(v).some((t) => t === 'production');

/** Vercel's subcommands other than a deploy (`vercel env pull --environment=production`); a path (`vercel ./apps/web --prod`) is a deploy. */
const VERCEL_OTHER = /^(?:env|pull|ls|list|logs|inspect|domains|dns|certs|secrets|projects?|teams|login|logout|whoami|link|dev|build|alias|rm|remove|init|git|integrations?|bisect|switch|help|open|rollback|redeploy|promote)$/;

const MIGRATORS = /^(?:db:migrate(?::\w+)?|db:rollback|db:seed|db:schema:load|migrate(?::latest|:up|:down|:rollback)?|upgrade|downgrade|up|down|push|deploy|resolve)$/;

export const LIVE_CHANGES = new CommandTable<View, Row>([
  // ---- deploys to a host's production
  { tools: ['vercel'], path: [], when: vercelProd, unless: (v) => VERCEL_OTHER.test(v.operands[0] ?? ''), kind: 'deploy', what: 'a production deploy on Vercel' },
  { tools: ['vercel'], path: ['promote'], kind: 'deploy', what: 'a deployment promoted to production on Vercel' },
  { tools: ['netlify'], path: ['deploy'], when: hasFlag('--prod', '--prodIfUnlocked'), kind: 'deploy', what: 'a production deploy on Netlify' },
  { tools: ['fly', 'flyctl'], path: ['deploy'], when: liveByDefault, unless: hasFlag('--build-only'), kind: 'deploy', what: 'the Fly.io app deployed' },
  { tools: ['fly', 'flyctl'], path: ['secrets', 'set'], when: liveByDefault, unless: hasFlag('--stage'), kind: 'deploy', what: "the Fly.io app's secrets changed (the app restarts with them)" },
  { tools: ['firebase', 'firebase-tools'], path: ['deploy'], when: liveByDefault, kind: 'deploy', what: 'a Firebase deploy to the project' },
  { tools: ['wrangler'], path: [/^(?:deploy|publish)$/], when: liveByDefault, kind: 'deploy', what: 'the Cloudflare Worker deployed' },
  { tools: ['gcloud'], path: [/^(?:run|app|functions)$/, 'deploy'], when: liveByDefault, unless: (v) => NOT_PROD.test(v.operands[2] ?? '') && !PROD.test(v.operands[2] ?? ''), kind: 'deploy', what: 'a Google Cloud service deployed' },
  { tools: ['railway'], path: ['up'], when: liveByDefault, kind: 'deploy', what: 'a Railway deploy' },
  { tools: ['kamal'], path: ['deploy'], when: liveByDefault, kind: 'deploy', what: 'a Kamal deploy to the servers' },
  { tools: ['eb'], path: ['deploy'], when: liveByDefault, kind: 'deploy', what: 'an Elastic Beanstalk environment deployed' },
  { tools: ['heroku'], path: [/^(?:config:set|config:unset|releases:rollback|ps:restart|restart)$/], when: liveByDefault, kind: 'deploy', what: 'a Heroku app changed (its dynos restart)' },
  { tools: ['serverless', 'sls'], path: ['deploy'], when: prodEvidence, kind: 'deploy', what: 'a Serverless deploy to the production stage' },
  { tools: ['aws'], path: ['lambda', /^update-function-code$/], when: liveByDefault, kind: 'deploy', what: "a Lambda function's code replaced (live at once)" },
  { tools: ['aws'], path: ['ecs', 'update-service'], when: liveByDefault, kind: 'deploy', what: 'an ECS service updated (its tasks are replaced)' },
  // ---- the configuration a production service runs with: its environment variables and secrets
  { tools: ['vercel'], path: ['env', /^(?:add|rm|remove|update)$/], when: (v) => v.operands.slice(3).includes('production'), kind: 'config', what: "the production environment's variables changed on Vercel" },
  { tools: ['netlify'], path: [/^env:(?:set|unset|import|clone)$/], when: liveByDefault, kind: 'config', what: "the site's environment variables changed on Netlify (production included)" },
  { tools: ['railway'], path: ['variables'], when: (v) => (hasFlag('--set')(v) || /^(?:set|delete)$/.test(v.operands[1] ?? '')) && liveByDefault(v), kind: 'config', what: "the service's variables changed on Railway (it redeploys)" },
  { tools: ['railway'], path: ['variable', /^(?:set|delete)$/], when: liveByDefault, kind: 'config', what: "the service's variables changed on Railway (it redeploys)" },
  { tools: ['gcloud'], path: ['run', 'services', /^(?:update|update-traffic)$/], when: liveByDefault, unless: (v) => (NOT_PROD.test(v.operands[3] ?? '') && !PROD.test(v.operands[3] ?? '')) || hasFlag('--no-traffic')(v), kind: 'config', what: 'a Cloud Run service updated (a new revision serves traffic)' },
  { tools: ['aws'], path: ['lambda', 'update-function-configuration'], when: liveByDefault, kind: 'config', what: "a Lambda function's configuration changed (live at once)" },
  // ---- migrations applied to the live database
  { tools: ['supabase'], path: ['db', 'push'], unless: (v) => hasFlag('--local')(v) || notProdTarget(v), kind: 'migration', what: 'migrations pushed to the linked Supabase project' },
  { tools: ['supabase'], path: ['migration', /^(?:up|repair)$/], when: hasFlag('--linked'), kind: 'migration', what: 'migrations applied to the linked Supabase project' },
  { tools: ['wrangler'], path: ['d1', 'migrations', 'apply'], when: hasFlag('--remote'), kind: 'migration', what: 'D1 migrations applied to the remote database' },
  { tools: ['prisma'], path: [/^(?:migrate|db)$/, /^(?:deploy|resolve|push|execute)$/], when: prodEvidence, kind: 'migration', what: 'Prisma migrations applied to the production database' },
  { tools: ['rails', 'rake'], path: [/^db:(?:migrate|rollback|seed|schema:load)/], when: prodEvidence, kind: 'migration', what: 'Rails migrations run against the production database' },
  { tools: ['php'], path: ['artisan', /^(?:migrate|migrate:rollback|db:seed)$/], when: prodEvidence, kind: 'migration', what: 'Laravel migrations run against the production database' },
  { tools: ['python'], path: [/(^|\/)manage\.py$/, /^(?:migrate|loaddata)$/], when: prodEvidence, kind: 'migration', what: 'Django migrations run against the production database' },
  { tools: ['alembic', 'knex', 'sequelize', 'sequelize-cli', 'drizzle-kit', 'dbmate', 'goose', 'flyway', 'migrate'], path: [MIGRATORS], when: prodEvidence, kind: 'migration', what: 'migrations run against the production database' },
  // ---- a production cluster changed
  { tools: ['kubectl', 'oc'], path: [/^(?:apply|patch|replace|set|scale|edit|annotate|label|create|expose|autoscale|exec|cp|cordon|uncordon|taint)$/], when: k8sProd, kind: 'cluster', what: 'a production Kubernetes cluster changed' },
  { tools: ['kubectl', 'oc'], path: ['rollout', /^(?:restart|undo|pause|resume)$/], when: k8sProd, kind: 'cluster', what: 'a production rollout restarted or rolled back' },
  { tools: ['helm'], path: [/^(?:upgrade|install|rollback)$/], when: k8sProd, kind: 'cluster', what: 'a Helm release changed in a production cluster' },
  // ---- infrastructure applied to a production stack
  { tools: ['terraform', 'tofu', 'terragrunt'], path: ['apply'], when: prodEvidence, kind: 'infra', what: 'infrastructure changes applied to the production stack' },
  { tools: ['pulumi'], path: ['up'], when: prodEvidence, kind: 'infra', what: 'infrastructure changes applied to the production stack' },
  { tools: ['cdk'], path: ['deploy'], when: prodEvidence, kind: 'infra', what: 'a CDK stack deployed to production' },
]);

/** What restarts a service on the machine it runs on (judged when that machine is a production host, over ssh). */
function restartsService(cmd: SimpleCommand): boolean {
  const { operands } = parseArgs(cmd.args);
  if (cmd.name === 'systemctl') return /^(?:restart|reload|stop|start|try-restart|reload-or-restart)$/.test(operands[0] ?? '');
  if (cmd.name === 'service') return /^(?:restart|reload|stop|start)$/.test(operands[1] ?? '');
  if (cmd.name === 'pm2') return /^(?:restart|reload|stop|start|delete)$/.test(operands[0] ?? '');
  if (cmd.name === 'docker-compose' || (cmd.name === 'docker' && operands[0] === 'compose')) return operands.some((o) => /^(?:up|restart|down|stop)$/.test(o));
  return false;
}

/**
 * What the request must ask for each kind of change to be the user's: the act itself, as a verb
 * with its object — to deploy, ship or push live; to run or apply migrations; to restart, roll out
 * or scale, or to use kubectl or helm; to apply infrastructure; to restart a service. Mentioning
 * the code involved ("the zod schema", "the rails controller", "the release notes", "the pods")
 * asks for none of them.
 */
const ASKS: Record<Kind, RegExp> = {
  deploy: /\b(?:re)?deploy|\bship\s+(?:it|this|that|them|the\b)|go(?:es)?\s+live|\b(?:push|put|take|make|get)\w*\s+(?:[\w'-]+\s+){0,3}(?:to\s+|on\s+|into\s+)?(?:prod|production|live)\b|\broll\s?out\b|\bpromote\b|배포|部署|上线|デプロイ|despl[ei]eg|d[ée]plo[iy]|bereitstell|депл|выкат/i,
  // the configuration itself ("set the Stripe key on Vercel", "update the env vars"), or a deploy, which carries its configuration
  // (a key or the config of a named platform: "rotate the Stripe API key on Vercel", "update the lambda config")
  config: /\b(?:set|add|update|change|configure|rotate|put|replace|remove|copy|sync|move|fix)\w*\s+(?:[\w'-]+\s+){0,4}(?:env(?:ironment)?\s+var(?:iable)?s?|env\s+vars?|secrets?|(?:environment\s+)?variables?)\b|\b(?:set|add|update|change|configure|rotate|put|replace|fix)\w*\s+(?:[\w'-]+\s+){0,4}(?:(?:api|secret|access)\s+keys?|config(?:uration)?)\b(?=[^.!?\n]{0,60}\b(?:vercel|netlify|railway|lambda|cloud\s+run|heroku|fly(?:\.io)?|render|production|prod)\b)|\b(?:re)?deploy|환경\s?변수|环境变量|環境変数|переменн/i,
  migration: /\b(?:run|apply|push|execute)\w*\s+(?:[\w'-]+\s+){0,3}migrations?\b|\bmigrate\b|\bdb\s+push\b|\bmigrations?\s+(?:up|to\s+(?:prod|production|live|the\s+(?:live|remote)))|마이그레이션|迁移|マイグレーション|миграц/i,
  // also the change itself, as a verb and the kind of object it makes or changes ("create the separate namespaces", "apply the ingress")
  cluster: /\bkubectl\b|\bhelm\b|\b(?:re)?deploy|\broll\s?out\b|\brestart\b|\bscale\s+(?:up|down|the\b|to\b)|\bpatch\s+the\s+(?:deployment|cluster|service)|\b(?:create|apply|patch|add|set\s+up|expose|label|annotate)\s+(?:[\w'()-]+\s+){0,4}(?:namespaces?|config\s?maps?|ingress(?:es)?|cronjobs?|statefulsets?|daemonsets?|service\s?accounts?|rolebindings?|persistent\s?volume\s?claims?|pvcs?|hpas?|network\s?polic(?:y|ies)|managed\s?certificates?)\b/i,
  infra: /\bterraform\s+apply\b|\bpulumi\s+up\b|\bcdk\s+deploy\b|\bapply\s+(?:the\s+)?(?:terraform|plan|infra\w*)\b|\bprovision\b|\b(?:re)?deploy/i,
  service: /\brestart\b|\breload\b|\b(?:re)?deploy/i,
  // the change to the database itself, in a request that speaks of the database: running SQL or
  // migrations, or making, fixing or dropping one of its objects ("fix the formatPrice function" asks for code)
  schema: /(?=[\s\S]*\b(?:database|db|sql|schema|migrations?|supabase|postgres(?:ql)?|psql|mysql|rpcs?|stored\s+procedures?|polic(?:y|ies)|triggers?|server)\b)(?:\b(?:run|apply|execute)\w*\s+(?:[\w'-]+\s+){0,3}(?:sql|ddl|migrations?|scripts?|quer(?:y|ies)|statements?)\b|\bmigrate\b|\b(?:create|update|fix|change|alter|add|modify|recreate|replace|drop|rewrite|grant|revoke)\s+(?:[\w'-]+\s+){0,3}(?:functions?|tables?|columns?|triggers?|polic(?:y|ies)|schemas?|database|db|indexe?s?|views?|rpcs?|procedures?|permissions?|privileges?|roles?)\b)/i,
};

/** DDL: a statement that changes a database's objects, owners or grants, where a statement begins (dropping tables is destructive-sql's). */
const DDL = /(?:^|;)\s*((?:CREATE(?:\s+OR\s+REPLACE)?\s+(?:UNIQUE\s+)?(?:FUNCTION|PROCEDURE|TRIGGER|POLICY|VIEW|MATERIALIZED\s+VIEW|TABLE|INDEX|TYPE|EXTENSION|SCHEMA|ROLE|USER|RULE)|ALTER\s+(?:TABLE|FUNCTION|PROCEDURE|POLICY|ROLE|USER|VIEW|TYPE|SCHEMA|DATABASE|DEFAULT\s+PRIVILEGES)|DROP\s+(?:FUNCTION|PROCEDURE|TRIGGER|POLICY|VIEW|MATERIALIZED\s+VIEW|INDEX|TYPE|EXTENSION|ROLE|USER|RULE)|GRANT|REVOKE)\b[^;]{0,60})/i;
/** Cheap screen before the SQL is looked for: a command line that can carry DDL at all. */
const SQL_HINT = /\b(?:CREATE|ALTER|DROP|GRANT|REVOKE)\b/i;
/**
 * This machine: loopback names, Docker's host alias, a Unix socket's folder (`-h /var/run/postgresql`).
 * Narrower than commands.ts's `isLocalHost`, which counts private networks as local: a database at
 * 10.0.0.5 is another machine's, most often the live one.
 */
const LOCAL_HOST = /^(?:localhost|127(?:\.\d+){3}|::1|\[::1\]|0\.0\.0\.0|host\.docker\.internal|\/.*)$/i;

/** SQL without its comments, string literals and dollar-quoted bodies: the statements themselves. */
function statementsOf(sql: string): string {
  return sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, ' ').replace(/'(?:[^']|'')*'/g, "''");
}

/**
 * The database a client reached on another machine: the host the command ran on over ssh, or the
 * host the client was given (`-h`, `--host`, `PGHOST=`, `host=` in a connection string, a
 * connection URL, also as `--dbname=URL`); null for this machine. A name with no dot given to the
 * client itself is a service on this machine's network (a docker-compose `db`).
 */
function remoteDatabaseHost(loc: Located, client: SimpleCommand): string | null {
  if (loc.cmd.host) return LOCAL_HOST.test(loc.cmd.host.replace(/^[^@]*@/, '')) ? null : loc.cmd.host.replace(/^[^@]*@/, '');
  const assigned = [...loc.cmd.assignments, ...client.assignments].map((a) => /^PGHOST=(.+)$/.exec(a)?.[1]).find((h) => h !== undefined);
  const given = optionValues(client.args, ['-h', '--host'])[0] ?? assigned ?? client.args.map((a) => { const m = CONNECTION_HOST.exec(a); return m?.[1] ?? m?.[2]; }).find((h) => h !== undefined);
  if (!given || LOCAL_HOST.test(given) || !/[.:]/.test(given)) return null;
  return given;
}
/** The host in a connection URL (`postgresql://u:p@db.acme.io:5432/app`, after `--dbname=` too) or a libpq string (`host=db.acme.io dbname=app`). */
const CONNECTION_HOST = /(?:^|=)(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?):\/\/(?:[^@/\s]*@)?([^:/?\s]+)|(?:^|\s)host=([^\s]+)/i;

/** Where the command says it acts, besides the host: the database (`-d`, `--dbname`) and the container it runs the client in. */
function targetNames(loc: Located, client: SimpleCommand, host: string): string[] {
  const container = client === loc.cmd ? [] : loc.cmd.args.filter((a) => !a.startsWith('-')).slice(1, 2);
  return [host, ...optionValues(client.args, ['-d', '--dbname']), ...container];
}

/**
 * DDL sent to a database on another machine (`ssh root@203.0.113.7 "docker exec db psql -c 'DROP
 * FUNCTION …; CREATE … SECURITY DEFINER …'"`, `psql -h db.example.com -c 'ALTER TABLE …'`): the
 * live database's code, tables, owners or grants changed outside any migration the project keeps.
 * A staging, dev or test name in the host, the database or the container says it is not the live
 * one. A statement that deletes data or tables is destructive-sql's finding (one event, one
 * finding).
 */
function schemaChange(loc: Located, all: readonly Located[], raw: string, session: SessionFacts): { kind: Kind; what: string; tool: string } | null {
  if (!SQL_HINT.test(raw)) return null;
  const sent = sqlSent(loc, all, raw, session);
  if (!sent) return null;
  const host = remoteDatabaseHost(loc, sent.client);
  if (!host || targetNames(loc, sent.client, host).some((n) => NOT_PROD.test(n))) return null;
  if (sent.texts.some((t) => findDestructiveSql(t) !== null)) return null;
  for (const text of sent.texts) {
    const statement = DDL.exec(statementsOf(text));
    if (statement) return { kind: 'schema', what: `the database on ${host} changed outside any migration (\`${statement[1]!.trim().replace(/\s+/g, ' ')}\`)`, tool: sent.client.name };
  }
  return null;
}

/** The words just before an ask that turn it round: "don't change any env vars", "never deploy". */
const NEGATED_BEFORE = /\b(?:don'?t|do\s+not|never|no\s+need\s+to|without)\s+(?:\w+\s+){0,3}$/i;
const ASK_MATCHES_MAX = 20;

/** Any of the request's asks of this kind that is not turned round ("do not redeploy the worker; deploy the web app"). */
function asksFor(said: string, kind: Kind): boolean {
  const all = new RegExp(ASKS[kind].source, 'gi');
  let n = 0;
  for (const m of said.matchAll(all)) {
    if (!NEGATED_BEFORE.test(said.slice(Math.max(0, m.index - 40), m.index))) return true;
    if (++n >= ASK_MATCHES_MAX) break;
  }
  return false;
}

/** A target selected for later commands: kubectl's context, terraform's workspace, pulumi's stack. */
interface Selection {
  family: 'kubectl' | 'terraform' | 'pulumi';
  prod: boolean;
}

/**
 * `kubectl config use-context prod-eu`, `kubectx prod`, `terraform workspace select production`,
 * `pulumi stack select prod`: the target later commands of that tool use, and whether it names
 * production; null for any other command.
 */
function selection(cmd: SimpleCommand): Selection | null {
  const { operands } = parseArgs(cmd.args, ['--kubeconfig', '-chdir', '--cwd', '-C']);
  let family: Selection['family'] | null = null;
  let to: string | undefined;
  if (cmd.name === 'kubectx') [family, to] = ['kubectl', operands[0]];
  else if ((cmd.name === 'kubectl' || cmd.name === 'oc') && operands[0] === 'config' && operands[1] === 'use-context') [family, to] = ['kubectl', operands[2]];
  else if ((cmd.name === 'terraform' || cmd.name === 'tofu') && operands[0] === 'workspace' && (operands[1] === 'select' || operands[1] === 'new')) [family, to] = ['terraform', operands[2]];
  else if (cmd.name === 'pulumi' && operands[0] === 'stack' && (operands[1] === 'select' || operands[1] === 'init')) [family, to] = ['pulumi', operands[2]];
  return family === null || to === undefined ? null : { family, prod: PROD.test(to) && !NOT_PROD.test(to) };
}

/** `kubectl config current-context`, `kubectx -c`: a question whose answer is the context in use. */
function asksCurrentContext(cmd: SimpleCommand): boolean {
  // (of another kubeconfig than the one later commands use: it says nothing of theirs)
  if (cmd.args.some((a) => a.startsWith('--kubeconfig')) || cmd.assignments.some((a) => a.startsWith('KUBECONFIG='))) return false;
  const { operands } = parseArgs(cmd.args, ['--kubeconfig']);
  return ((cmd.name === 'kubectl' || cmd.name === 'oc') && operands[0] === 'config' && operands[1] === 'current-context' && operands.length === 2) || (cmd.name === 'kubectx' && (cmd.args.includes('-c') || cmd.args.includes('--current')));
}

/** The context a current-context answer names (its one line), and whether it names production; null for anything else. */
function shownContext(output: string): { prod: boolean } | null {
  const name = output.trim();
  if (!/^[\w.:@/-]{1,200}$/.test(name)) return null;
  return { prod: PROD.test(name) && !NOT_PROD.test(name) };
}

/** The programs that select a target for later commands (`selection` reads only these). */
const SELECTORS: ReadonlySet<string> = new Set(['kubectx', 'kubectl', 'oc', 'terraform', 'tofu', 'pulumi']);

const FAMILY: Record<string, Selection['family']> = { kubectl: 'kubectl', oc: 'kubectl', helm: 'kubectl', terraform: 'terraform', tofu: 'terraform', terragrunt: 'terraform', pulumi: 'pulumi' };

/** The live change a command makes, or null (dry runs, previews and deletions are not one). */
export function liveChange(command: SimpleCommand, selected: ReadonlySet<Selection['family']> = new Set()): { kind: Kind; what: string; tool: string } | null {
  if (command.host && PROD.test(command.host) && !NOT_PROD.test(command.host) && restartsService(command) && !command.args.some((a) => DRY.test(a))) return { kind: 'service', what: `services restarted on the production host ${command.host}`, tool: command.name };
  const { cmd, tool, valueOpts } = serviceTool(command);
  const rows = LIVE_CHANGES.rowsOf(tool);
  if (!rows || command.args.some((a) => DRY.test(a))) return null;
  const family = FAMILY[tool];
  const view: View = { ...parseArgs(cmd.args, valueOpts), args: cmd.args, assignments: cmd.assignments, selectedProd: family !== undefined && selected.has(family) };
  const row = LIVE_CHANGES.first(rows, view);
  return row ? { kind: row.kind, what: row.what, tool } : null;
}

export const LIVE_SYSTEM_RULES: Rule[] = [
  {
    metas: [liveSystemChanged],
    create(ctx) {
      const requests = requestsOf(ctx.session);
      // findings wait for their call's result: a failed or refused command changed nothing live (Outcomes settles them)
      const outcomes = new Outcomes(ctx, [liveSystemChanged]);
      // the tools whose selected target (context, workspace, stack) is production
      const selected = new Set<Selection['family']>();
      const judge = (event: ToolCallEvent, facts: EventFacts, cmd: SimpleCommand, change: NonNullable<ReturnType<typeof liveChange>>, last: boolean) => {
        // a log that starts mid-session holds no request at all: say so rather than "nothing asked"
        const said = requests.for(event).length > 0 ? 'Nothing the user said asked for this change.' : 'The log holds no request from the user before it (it may start mid-session), so nothing shows this change was asked for.';
        const draft: FindingDraft = {
          rule: liveSystemChanged.id,
          detail: `${capitalise(change.what)}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`. ${said}`,
          evidence: [evidence(event, cmd.text, facts)],
          key: change.kind,
        };
        const asked = whoAsked(requests.for(event), (said) => asksFor(said, change.kind) || dictates(said, cmd.text));
        const judged = asked
          ? asRequested({ ...draft, detail: `${capitalise(change.what)}: \`${safe(cmd.text, facts, QUOTE_MAX)}\`.` }, liveSystemChanged, asked, 'the request asked for this kind of change')
          : draft;
        outcomes.report(event, 'run', judged, undefined, { last, title: liveSystemChanged.title });
      };
      // `kubectl config current-context` asked which cluster is in use: its answer is the context
      // later commands without --context act on (read from the result, when it ran)
      const asking = new Map<string, true>();
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'tool_result' && asking.delete(event.callId) && !event.isError && !event.denied && (event.exitCode === null || event.exitCode === 0)) {
            const shown = shownContext(event.output);
            if (shown !== null && shown.prod) selected.add('kubectl');
            else if (shown !== null) selected.delete('kubectl');
          }
          if (event.kind !== 'tool_call' || event.input.type !== 'command') return;
          const commands = effectsOf(event, facts, ctx.session).commands;
          const line = event.input.command;
          commands.forEach((loc, i) => {
            const { cmd } = loc;
            if (asksCurrentContext(cmd) && commands.length === 1 && asking.size < 100) asking.set(event.callId, true);
            const chosen = SELECTORS.has(cmd.name) ? selection(cmd) : null;
            if (chosen) {
              if (chosen.prod) selected.add(chosen.family);
              else selected.delete(chosen.family);
            }
            const change = liveChange(cmd, selected) ?? schemaChange(loc, commands, line, ctx.session);
            // a teardown is destructive's finding: one event, one finding
            if (!change || serviceTeardown(cmd, line, ctx.session.agent)) return;
            // the call's status is its last step's: a failure says something of this command only when
            // nothing but pass-through stages ran after it (`deploy | grep error` fails when grep finds nothing)
            judge(event, facts, cmd, change, lastStep(commands, i));
          });
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];

