// Cloud, cluster and service teardown as data: one row per tool and subcommand path, read like
// the catalogue ("aws rds delete-db-instance → critical: a database instance deleted"). The
// destructive rules (infra-destroy for resources, destructive-sql for data stores) look a simple
// command up here. A row matches when its `path` is a prefix of the command's positional words
// (option values removed with the tool's `valueOpts`), and its `when`/`unless` hold.
import type { SimpleCommand } from '../shell/types.ts';
import type { AgentId } from '../agents.ts';
import { CommandTable, hasFlag, type Row as TableRow } from './command-table.ts';
import { hostOfUrl, isLocalHost, optionValues, parseArgs, type ParsedArgs } from './commands.ts';

export type Severity = 'critical' | 'warning';
/** infra: a cloud/cluster/service resource (infra-destroy); data: a database or data store (destructive-sql). */
export type Family = 'infra' | 'data';

export interface Teardown {
  family: Family;
  severity: Severity;
  /** What was destroyed, for the finding's detail ("EC2 instances terminated"). */
  what: string;
}

interface View extends ParsedArgs {
  args: string[];
  /** The whole tool call's text: `docker rm -f $(docker ps -aq)` is judged by its substitution. */
  text: string;
  assignments: string[];
  /** Something can answer the command's prompt: a pipe, `< file`, a heredoc or here-string, or the agent typing into it. */
  fedInput: boolean;
}

interface Row extends TableRow<View> {
  family: Family;
  severity: Severity | ((v: View) => Severity);
  what: string;
}

const PROD = /\b(prod|production|prd|live)\b/i;
const prodOr = (otherwise: Severity) => (v: View): Severity => (PROD.test(v.args.join(' ')) || v.assignments.some((a) => /^(RAILS_ENV|RACK_ENV|NODE_ENV|APP_ENV|MIX_ENV)=prod/i.test(a)) ? 'critical' : otherwise);

/** Options whose next word is their value, per tool, so values are not taken for subcommands. */
const VALUE_OPTS: Record<string, string[]> = {
  aws: ['--profile', '--region', '--output', '--endpoint-url', '--query', '--cli-input-json', '--color', '--ca-bundle', '--cli-read-timeout', '--cli-connect-timeout'],
  gcloud: ['--project', '--zone', '--region', '--format', '--account', '--configuration', '--verbosity', '--impersonate-service-account', '--billing-project'],
  gsutil: ['-o', '-h', '-u', '-p'],
  az: ['--subscription', '--output', '-o', '--query'],
  kubectl: ['-n', '--namespace', '--context', '--cluster', '--kubeconfig', '-l', '--selector', '-o', '--output', '--field-selector', '--grace-period', '--timeout', '-s', '--server', '--user', '--as', '--cascade'],
  oc: ['-n', '--namespace', '--context', '--kubeconfig', '-l', '--selector', '-o', '--output'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig', '--timeout'],
  docker: ['-H', '--host', '--context', '-c', '--config', '--log-level', '-f', '--filter', '-p', '--project-name', '--file', '--env-file', '--project-directory'],
  podman: ['--url', '--connection', '-c', '--filter', '-f'],
  'docker-compose': ['-f', '--file', '-p', '--project-name', '--env-file', '--project-directory'],
  vault: ['-address', '-namespace', '-mount', '-format', '-output-curl-string'],
  gh: ['-R', '--repo', '-e', '--env', '-o', '--org', '-a', '--app'],
  glab: ['-R', '--repo', '-g', '--group'],
  fly: ['-a', '--app', '-c', '--config', '-o', '--org', '-r', '--region'],
  flyctl: ['-a', '--app', '-c', '--config', '-o', '--org', '-r', '--region'],
  heroku: ['-a', '--app', '-r', '--remote'],
  doctl: ['-t', '--access-token', '--context', '-o', '--output', '--format'],
  firebase: ['-P', '--project', '--config'],
  'firebase-tools': ['-P', '--project', '--config'],
  supabase: ['--workdir', '--project-ref', '--db-url', '-p', '--password'],
  terraform: ['-var', '-var-file', '-target', '-chdir', '-state', '-lock-timeout', '-parallelism'],
  tofu: ['-var', '-var-file', '-target', '-chdir', '-state'],
  pulumi: ['-s', '--stack', '-C', '--cwd'],
  rpk: ['-X', '--brokers', '--profile'],
  'kafka-topics': ['--bootstrap-server', '--zookeeper', '--topic', '--command-config'],
  rails: ['-e', '--environment'],
  rake: ['-f', '--rakefile', '-C', '--directory'],
  prisma: ['--schema'],
  vercel: ['--scope', '--token', '-t', '-S', '--cwd', '-A', '--local-config'],
  netlify: ['--site', '--auth'],
  rclone: ['--config', '--filter', '--include', '--exclude', '--max-age', '--min-age', '--transfers', '--checkers', '--log-file', '--backup-dir', '--bwlimit'],
  restic: ['-r', '--repo', '--password-file', '--keep-last', '--keep-daily', '--keep-weekly', '--keep-monthly', '--keep-yearly', '--keep-hourly', '--keep-within', '--tag', '--host', '--path', '--cache-dir'],
  borg: ['-a', '--glob-archives', '--keep-last', '--keep-daily', '--keep-weekly', '--keep-monthly', '--keep-yearly', '--keep-within', '--prefix', '--repo'],
  velero: ['-n', '--namespace', '--selector', '-l', '--name', '--kubeconfig'],
  doppler: ['-p', '--project', '-c', '--config', '--token', '--scope'],
  op: ['--vault', '--account', '--format'],
  infisical: ['--env', '--path', '--projectId', '--token'],
  rabbitmqctl: ['-p', '--vhost', '-n', '--node'],
  rabbitmqadmin: ['-H', '--host', '-P', '--port', '-V', '--vhost', '-u', '--username', '-p', '--password'],
  nats: ['-s', '--server', '--context', '--creds', '--user', '--password'],
  circleci: ['--token', '--host'],
};

/** AWS calls that delete single messages, rows, objects or tags: day-to-day work, not teardown. */
const AWS_ROUTINE = /^(delete|remove)-(message(-batch)?|object|objects|item|tags?|.*-tags|.*-tagging|attributes|alarms|.*-attributes|object-tagging|.*-policy-version|login-profile)$/;
const AWS_DESTROY = /^(delete|terminate|deregister|purge|remove)-|^schedule-key-deletion$|^disable-key$/;

const K8S_STORAGE = /^(pvc|pv|persistentvolumeclaims?|persistentvolumes?|crds?|customresourcedefinitions?(\.apiextensions\.k8s\.io)?|storageclass(es)?|sc)(\/.*)?$/;
const K8S_WORKLOAD = /^(deploy|deployments?(\.apps)?|statefulsets?|sts|daemonsets?|ds|services?|svc|nodes?|no|ingress(es)?|ing|secrets?)(\/.*)?$/;
/**
 * Docker's and Podman's prunes ask "Are you sure you want to continue? [y/N]" unless forced
 * (`-f`, `--force`). Claude Code's Bash tool and Gemini CLI's shell give the model no way to type
 * into a running command: unanswered, the prompt reads no (or waits until the call times out) and
 * nothing is removed, and where Gemini shows the prompt in its terminal the person answers it.
 * Forced, with input fed to it (`yes |`, `<<< y`), or in Codex (whose `write_stdin` lets the
 * model type the `y`) or an unknown agent, it runs.
 */
const NO_TYPING_INTO_COMMANDS: ReadonlySet<AgentId> = new Set(['claude-code', 'gemini-cli']);

const unansweredPrompt = (v: View) => !v.fedInput && !v.args.some((a) => a === '--force' || a === '--force=true' || /^-[a-zA-Z]*f[a-zA-Z]*$/.test(a));

const ALL_CONTAINERS = /docker\s+(?:container\s+)?(?:ps|ls)\b[^|)`]*\s-(?:[a-z]*a[a-z]*|-all)\b|podman\s+ps\b[^|)`]*\s-[a-z]*a/;
const ALL_IMAGES = /docker\s+images?\b[^|)`]*-[a-z]*q|docker\s+image\s+ls\b[^|)`]*-[a-z]*q/;
const RAILS_DB = /^db:(drop|reset|purge|truncate_all|migrate:reset|schema:load|seed:replant|setup)(:[\w:]+)?$/;

export const TEARDOWNS = new CommandTable<View, Row>([
  // ---- Kubernetes / Helm
  { tools: ['kubectl', 'oc'], path: ['delete', /^(ns|namespaces?)(\/.*)?$/], family: 'infra', severity: 'critical', what: 'a Kubernetes namespace and everything in it deleted' },
  { tools: ['kubectl', 'oc'], path: ['delete'], when: hasFlag('--all', '-A', '--all-namespaces'), family: 'infra', severity: 'critical', what: 'every resource of a kind deleted (--all)' },
  { tools: ['kubectl', 'oc'], path: ['delete', K8S_STORAGE], family: 'infra', severity: 'critical', what: 'persistent volumes, claims or resource definitions (and their data) deleted' },
  { tools: ['kubectl', 'oc'], path: ['delete', K8S_WORKLOAD], family: 'infra', severity: prodOr('warning'), what: 'a Kubernetes workload or service deleted' },
  { tools: ['kubectl', 'oc'], path: ['delete'], when: hasFlag('-f', '--filename', '-k', '--kustomize'), family: 'infra', severity: prodOr('warning'), what: 'every resource of a manifest deleted' },
  { tools: ['helm'], path: [/^(uninstall|delete|del|un)$/], family: 'infra', severity: prodOr('warning'), what: 'a Helm release uninstalled' },
  // ---- infrastructure as code
  { tools: ['terraform', 'tofu', 'terragrunt'], path: ['destroy'], family: 'infra', severity: 'critical', what: 'the whole stack destroyed' },
  { tools: ['terraform', 'tofu', 'terragrunt'], path: ['apply'], when: hasFlag('-destroy', '--destroy'), family: 'infra', severity: 'critical', what: 'the whole stack destroyed (apply -destroy)' },
  { tools: ['terragrunt'], path: [/^run-all$/, 'destroy'], family: 'infra', severity: 'critical', what: 'every stack destroyed (run-all destroy)' },
  { tools: ['terraform', 'tofu'], path: ['state', 'rm'], family: 'infra', severity: 'warning', what: 'resources dropped from the Terraform state' },
  { tools: ['terraform', 'tofu'], path: ['workspace', 'delete'], family: 'infra', severity: prodOr('warning'), what: 'a Terraform workspace (and its state) deleted' },
  { tools: ['pulumi'], path: ['destroy'], family: 'infra', severity: 'critical', what: 'the whole stack destroyed' },
  { tools: ['pulumi'], path: ['stack', 'rm'], family: 'infra', severity: 'critical', what: 'a Pulumi stack removed' },
  { tools: ['cdk', 'cdktf'], path: ['destroy'], family: 'infra', severity: 'critical', what: 'the whole stack destroyed' },
  { tools: ['serverless', 'sls'], path: ['remove'], family: 'infra', severity: 'critical', what: 'the deployed service removed' },
  // ---- AWS
  { tools: ['aws'], path: ['s3', 'rb'], family: 'infra', severity: 'critical', what: 'an S3 bucket deleted' },
  { tools: ['aws'], path: ['s3', 'rm'], when: hasFlag('--recursive'), family: 'infra', severity: 'critical', what: 'S3 objects deleted recursively' },
  { tools: ['aws'], path: [/^[a-z0-9-]+$/, AWS_DESTROY], unless: (v) => AWS_ROUTINE.test(v.operands[1] ?? ''), family: 'infra', severity: 'critical', what: 'an AWS resource deleted or terminated' },
  // ---- Google Cloud
  { tools: ['gcloud'], path: [], when: (v) => v.operands.includes('delete') && !/^(config|auth|components|topic)$/.test(v.operands[0] ?? ''), family: 'infra', severity: 'critical', what: 'a Google Cloud resource deleted' },
  { tools: ['gcloud'], path: ['storage', 'rm'], when: hasFlag('-r', '-R', '--recursive', '--all-versions'), family: 'infra', severity: 'critical', what: 'Cloud Storage objects deleted recursively' },
  { tools: ['gsutil'], path: ['rm'], when: hasFlag('-r', '-R', '-a'), family: 'infra', severity: 'critical', what: 'Cloud Storage objects deleted recursively' },
  { tools: ['gsutil'], path: ['rb'], family: 'infra', severity: 'critical', what: 'a Cloud Storage bucket deleted' },
  // ---- Azure, DigitalOcean and platforms
  { tools: ['az'], path: [], when: (v) => v.operands.some((o) => /^delete(-batch)?$/.test(o)) && !/^(config|account|extension|cache|tag|lock)$/.test(v.operands[0] ?? ''), family: 'infra', severity: 'critical', what: 'an Azure resource deleted' },
  { tools: ['doctl'], path: [], when: (v) => v.operands.slice(1).some((o) => /^(delete|rm|d)$/.test(o)), family: 'infra', severity: 'critical', what: 'a DigitalOcean resource deleted' },
  { tools: ['fly', 'flyctl'], path: [/^(apps?|volumes?|vol|postgres|pg|machines?|m|mpg|redis|tigris|storage)$/, /^(destroy|delete|rm|remove)$/], family: 'infra', severity: 'critical', what: 'a Fly.io app, volume or database destroyed' },
  { tools: ['fly', 'flyctl'], path: ['destroy'], family: 'infra', severity: 'critical', what: 'a Fly.io app destroyed' },
  { tools: ['heroku'], path: [/^(apps:destroy|destroy|addons:destroy|addons:remove)$/], family: 'infra', severity: 'critical', what: 'a Heroku app or add-on destroyed' },
  { tools: ['heroku'], path: [/^pg:reset$/], family: 'data', severity: 'critical', what: 'a Heroku Postgres database reset' },
  { tools: ['vercel'], path: [/^(rm|remove)$/], family: 'infra', severity: 'critical', what: 'a Vercel deployment or project removed' },
  { tools: ['vercel'], path: [/^projects?$/, /^(rm|remove)$/], family: 'infra', severity: 'critical', what: 'a Vercel project removed' },
  { tools: ['netlify'], path: ['sites:delete'], family: 'infra', severity: 'critical', what: 'a Netlify site deleted' },
  { tools: ['railway'], path: [/^(delete|down)$/], family: 'infra', severity: 'warning', what: 'a Railway project or deployment removed' },
  // ---- containers
  { tools: ['docker', 'podman'], path: ['system', 'prune'], unless: unansweredPrompt, family: 'infra', severity: (v) => (v.args.some((a) => a === '--volumes' || /^--volumes=(?!false\b)/.test(a)) ? 'critical' : 'warning'), what: 'unused containers, images and networks (and, with --volumes, volumes) pruned' },
  { tools: ['podman'], path: ['system', 'reset'], family: 'data', severity: 'critical', what: 'every Podman container, image and volume deleted' },
  { tools: ['docker', 'podman'], path: ['volume', 'prune'], unless: unansweredPrompt, family: 'data', severity: 'critical', what: 'Docker volumes (and the data in them) deleted' },
  { tools: ['docker', 'podman'], path: ['volume', /^(rm|remove)$/], family: 'data', severity: 'critical', what: 'Docker volumes (and the data in them) deleted' },
  { tools: ['docker', 'podman'], path: [/^(compose|container)$/, 'down'], when: hasFlag('-v', '--volumes'), family: 'data', severity: 'critical', what: 'Compose volumes (and the data in them) deleted' },
  { tools: ['docker-compose', 'podman-compose'], path: ['down'], when: hasFlag('-v', '--volumes'), family: 'data', severity: 'critical', what: 'Compose volumes (and the data in them) deleted' },
  { tools: ['docker', 'podman'], path: [/^(rm|container)$/], when: (v) => ALL_CONTAINERS.test(v.text), family: 'infra', severity: 'warning', what: 'every container removed' },
  { tools: ['docker', 'podman'], path: [/^(rmi|image)$/], when: (v) => ALL_IMAGES.test(v.text), family: 'infra', severity: 'warning', what: 'every image removed' },
  { tools: ['docker', 'podman'], path: [/^(image|container)$/, 'prune'], when: hasFlag('-a', '--all'), unless: unansweredPrompt, family: 'infra', severity: 'warning', what: 'all unused images or stopped containers pruned' },
  // ---- secrets and source hosting
  { tools: ['vault'], path: ['kv', /^(delete|destroy)$/], family: 'data', severity: 'critical', what: 'Vault secrets deleted' },
  { tools: ['vault'], path: ['kv', 'metadata', 'delete'], family: 'data', severity: 'critical', what: 'Vault secrets and all their versions deleted' },
  { tools: ['vault'], path: ['delete'], family: 'data', severity: 'critical', what: 'a Vault path deleted' },
  { tools: ['vault'], path: ['secrets', 'disable'], family: 'data', severity: 'critical', what: 'a Vault secrets engine and all its secrets removed' },
  { tools: ['vault'], path: [/^(auth|policy|audit)$/, /^(disable|delete)$/], family: 'infra', severity: 'warning', what: 'Vault auth, policy or audit configuration removed' },
  { tools: ['gh'], path: ['repo', 'delete'], family: 'infra', severity: 'critical', what: 'a GitHub repository deleted' },
  { tools: ['gh'], path: ['secret', /^(delete|remove)$/], family: 'infra', severity: 'critical', what: 'a GitHub Actions secret deleted' },
  { tools: ['gh'], path: [/^(release|variable|ssh-key|gpg-key|issue|environment|label)$/, /^(delete|remove)$/], family: 'infra', severity: 'warning', what: 'a GitHub release, variable, key or issue deleted' },
  { tools: ['gh'], path: ['workflow', 'disable'], family: 'infra', severity: 'warning', what: 'a GitHub Actions workflow disabled (its checks stop running)' },
  { tools: ['gh'], path: ['cache', /^(delete|rm)$/], family: 'infra', severity: 'warning', what: 'GitHub Actions caches deleted' },
  { tools: ['gh'], path: ['run', 'delete'], family: 'infra', severity: 'warning', what: 'a GitHub Actions run (and its logs) deleted' },
  { tools: ['gh'], path: ['api'], when: (v) => optionValues(v.args, ['-X', '--method']).some((m) => /^delete$/i.test(m)), family: 'infra', severity: 'warning', what: 'a GitHub API DELETE request' },
  { tools: ['glab'], path: ['repo', 'delete'], family: 'infra', severity: 'critical', what: 'a GitLab project deleted' },
  { tools: ['glab'], path: [/^(variable|release)$/, 'delete'], family: 'infra', severity: 'warning', what: 'a GitLab variable or release deleted' },
  // ---- message brokers, Firebase, application frameworks
  { tools: ['kafka-topics', 'kafka-topics.sh'], path: [], when: hasFlag('--delete'), family: 'data', severity: 'critical', what: 'Kafka topics (and their messages) deleted' },
  { tools: ['kafka-delete-records', 'kafka-delete-records.sh'], path: [], family: 'data', severity: 'critical', what: 'Kafka records deleted' },
  { tools: ['kafka-consumer-groups', 'kafka-consumer-groups.sh'], path: [], when: hasFlag('--delete', '--delete-offsets'), family: 'data', severity: 'warning', what: 'Kafka consumer groups or offsets deleted' },
  { tools: ['rpk'], path: ['topic', /^(delete|rm)$/], family: 'data', severity: 'critical', what: 'Kafka topics (and their messages) deleted' },
  { tools: ['firebase', 'firebase-tools'], path: ['firestore:delete'], when: hasFlag('--all-collections', '-r', '--recursive'), family: 'data', severity: 'critical', what: 'Firestore collections deleted' },
  { tools: ['firebase', 'firebase-tools'], path: [/^(database:remove|firestore:databases:delete)$/], family: 'data', severity: 'critical', what: 'a Firebase database deleted' },
  // Deployed functions and sites come back only by deploying again: until then, live callers fail.
  { tools: ['firebase', 'firebase-tools'], path: ['functions:delete'], family: 'infra', severity: 'warning', what: 'deployed Cloud Functions deleted (their live endpoints stop answering)' },
  { tools: ['firebase', 'firebase-tools'], path: [/^(hosting:disable|apphosting:backends:delete|apphosting:rollouts:delete)$/], family: 'infra', severity: 'warning', what: 'a live Firebase Hosting site or App Hosting backend taken down' },
  { tools: ['firebase', 'firebase-tools'], path: [/^(hosting:sites:delete|projects:delete)$/], family: 'infra', severity: 'critical', what: 'a Firebase Hosting site or project deleted' },
  { tools: ['rails', 'rake'], path: [RAILS_DB], family: 'data', severity: prodOr('warning'), what: 'the application database dropped or reset' },
  { tools: ['prisma'], path: ['migrate', 'reset'], family: 'data', severity: prodOr('warning'), what: 'the database reset (all data deleted)' },
  { tools: ['prisma'], path: ['db', 'push'], when: hasFlag('--force-reset', '--accept-data-loss'), family: 'data', severity: prodOr('warning'), what: 'the database reset or columns dropped by db push' },
  { tools: ['supabase'], path: ['db', 'reset'], family: 'data', severity: (v) => (v.long.has('--linked') || v.long.has('--db-url') ? 'critical' : 'warning'), what: 'the Supabase database reset' },
  { tools: ['supabase'], path: [/^projects?$/, 'delete'], family: 'infra', severity: 'critical', what: 'a Supabase project deleted' },
  { tools: ['php'], path: ['artisan', /^(migrate:fresh|migrate:reset|db:wipe)$/], family: 'data', severity: prodOr('warning'), what: 'the application database wiped' },
  { tools: ['python', 'python3'], path: [/(^|\/)manage\.py$/, /^(flush|reset_db|sqlflush)$/], family: 'data', severity: prodOr('warning'), what: 'the Django database emptied' },
  { tools: ['sequelize', 'sequelize-cli'], path: [/^db:drop$/], family: 'data', severity: prodOr('warning'), what: 'the database dropped' },
  { tools: ['mongo', 'mongosh'], path: [], when: (v) => /dropDatabase\s*\(/.test(v.text), family: 'data', severity: 'critical', what: 'a MongoDB database dropped' },
  // ---- backups: the recovery points themselves
  // rclone's --dry-run / -n only lists what it would do
  { tools: ['rclone'], path: [/^(purge|delete)$/], unless: hasFlag('--dry-run', '-n'), family: 'data', severity: 'critical', what: 'files on an rclone remote deleted' },
  { tools: ['rclone'], path: [/^(deletefile|rmdir|rmdirs|cleanup)$/], unless: hasFlag('--dry-run', '-n'), family: 'data', severity: 'warning', what: 'a file or directory on an rclone remote deleted' },
  { tools: ['rclone'], path: [/^(sync|move|moveto|bisync)$/], when: (v) => REMOTE_PATH.test(v.operands[2] ?? v.operands[1] ?? ''), unless: hasFlag('--dry-run', '-n'), family: 'data', severity: 'warning', what: 'files on the rclone destination that the source lacks deleted (sync), or the source removed (move)' },
  { tools: ['restic'], path: ['forget'], family: 'data', severity: 'critical', what: 'backup snapshots forgotten (restic forget)' },
  { tools: ['restic'], path: ['prune'], family: 'data', severity: 'warning', what: 'backup data pruned (restic prune)' },
  { tools: ['borg', 'borgbackup'], path: [/^(delete|rdelete|repo-delete)$/], family: 'data', severity: 'critical', what: 'backup archives or the repository deleted (borg delete)' },
  { tools: ['borg', 'borgbackup'], path: ['prune'], family: 'data', severity: 'warning', what: 'backup archives pruned (borg prune)' },
  { tools: ['velero'], path: ['backup', /^(delete|del|rm)$/], family: 'data', severity: 'critical', what: 'cluster backups deleted (velero backup delete)' },
  { tools: ['velero'], path: [/^(restore|schedule|snapshot|snapshot-location|backup-location)$/, /^(delete|del|rm)$/], family: 'data', severity: 'warning', what: 'a Velero restore, schedule or snapshot deleted' },
  { tools: ['aws'], path: ['s3', 'sync'], when: (v) => hasFlag('--delete')(v) && /^s3:\/\//.test(v.operands[3] ?? ''), family: 'data', severity: 'warning', what: 'objects in the bucket that the source lacks deleted (s3 sync --delete)' },
  // ---- secrets managers
  { tools: ['doppler'], path: [/^(secrets?)$/, /^(delete|rm|remove)$/], family: 'data', severity: 'critical', what: 'Doppler secrets deleted' },
  { tools: ['doppler'], path: [/^(configs?|environments?|projects?)$/, /^(delete|rm|remove)$/], family: 'data', severity: 'critical', what: 'a Doppler project, environment or config (and its secrets) deleted' },
  { tools: ['op'], path: ['vault', /^(delete|rm|remove)$/], family: 'data', severity: 'critical', what: 'a 1Password vault (and every item in it) deleted' },
  { tools: ['op'], path: [/^(item|document|user|group|connect)$/, /^(delete|rm|remove)$/], family: 'data', severity: 'warning', what: 'a 1Password item, document, user or group deleted' },
  { tools: ['infisical'], path: [/^(secrets?)$/, /^(delete|rm)$/], family: 'data', severity: 'critical', what: 'Infisical secrets deleted' },
  // ---- message queues
  { tools: ['rabbitmqctl'], path: [/^(delete_vhost|reset|force_reset)$/], family: 'data', severity: 'critical', what: 'a RabbitMQ virtual host or node state (and its queues) deleted' },
  { tools: ['rabbitmqctl'], path: [/^(delete_queue|purge_queue|delete_user|clear_permissions|delete_exchange)$/], family: 'data', severity: 'warning', what: 'a RabbitMQ queue, its messages, a user or permissions removed' },
  { tools: ['rabbitmqadmin'], path: [/^(delete|purge)$/], family: 'data', severity: 'warning', what: 'a RabbitMQ queue, exchange or its messages deleted' },
  { tools: ['nats'], path: [/^(stream|str|s)$/, /^(rm|delete|del|purge)$/], family: 'data', severity: 'critical', what: 'a NATS JetStream stream (and its messages) deleted or purged' },
  { tools: ['nats'], path: [/^(consumer|con|c|kv|object|obj)$/, /^(rm|delete|del|purge)$/], family: 'data', severity: 'warning', what: 'a NATS consumer, key-value or object store entry deleted' },
  // ---- CI systems and cluster nodes
  { tools: ['circleci'], path: [/^(context|orb|namespace|pipeline)$/, /^(delete|remove-secret)$/], family: 'infra', severity: 'warning', what: 'a CircleCI context, secret, orb or namespace deleted' },
  { tools: ['gitlab-runner'], path: ['unregister'], family: 'infra', severity: 'warning', what: 'GitLab runners unregistered' },
  { tools: ['kubectl', 'oc'], path: ['drain'], family: 'infra', severity: prodOr('warning'), what: 'a Kubernetes node drained (its pods evicted)' },
]);

/** rclone's `remote:path` (not a Windows drive letter, not a local path). */
const REMOTE_PATH = /^[\w-]{2,}:/;


/** The tool name a row is filed under: `kafka-topics.sh` and `/opt/kafka/bin/kafka-topics.sh` alike. */
function toolOf(cmd: SimpleCommand): string {
  if (cmd.name === 'bin/rails' || cmd.name === 'rails') return 'rails';
  if (/^python[\d.]*$/.test(cmd.name)) return 'python';
  return cmd.name;
}

/** Package runners that run another tool: `npx prisma …`, `bundle exec rails …`, `uv run python manage.py …`. */
const RUNNERS: Record<string, { sub?: string[]; valueOpts: string[] }> = {
  npx: { valueOpts: ['-p', '--package', '-c', '--call'] },
  bunx: { valueOpts: [] },
  pnpx: { valueOpts: [] },
  bundle: { sub: ['exec'], valueOpts: [] },
  pnpm: { sub: ['exec', 'dlx'], valueOpts: ['-C', '--dir', '--filter', '-F'] },
  yarn: { sub: ['exec', 'dlx', 'run'], valueOpts: ['--cwd'] },
  bun: { sub: ['x', 'run'], valueOpts: ['--cwd'] },
  poetry: { sub: ['run'], valueOpts: ['-C', '--directory'] },
  uv: { sub: ['run'], valueOpts: ['--with', '--python', '-p', '--project', '--directory'] },
  pipenv: { sub: ['run'], valueOpts: [] },
};

/** The command a package runner runs, or the command itself. */
function throughRunner(cmd: SimpleCommand): SimpleCommand {
  const runner = Object.hasOwn(RUNNERS, cmd.name) ? RUNNERS[cmd.name] : undefined;
  if (!runner) return cmd;
  let i = 0;
  const skipOptions = () => {
    while (i < cmd.args.length && cmd.args[i].startsWith('-')) i += runner.valueOpts.includes(cmd.args[i]) ? 2 : 1;
  };
  skipOptions();
  if (runner.sub) {
    if (!runner.sub.includes(cmd.args[i] ?? '')) return cmd;
    i++;
    skipOptions();
  }
  const inner = cmd.args[i];
  if (!inner) return cmd;
  return { ...cmd, name: inner.replace(/^.*\//, '').replace(/^(.+)@[^@/]*$/, '$1'), args: cmd.args.slice(i + 1) };
}

/** The tool a command runs (through a package runner), its name as the tables file it, and the options that take a value. */
export function serviceTool(command: SimpleCommand): { cmd: SimpleCommand; tool: string; valueOpts: readonly string[] } {
  const cmd = throughRunner(command);
  const tool = toolOf(cmd).replace(/\.(sh|bat|cmd)$/, '');
  return { cmd, tool, valueOpts: VALUE_OPTS[tool] ?? [] };
}

/** What a command tears down, or null. `text` is the whole tool call (for `$(docker ps -aq)`). */
export function serviceTeardown(command: SimpleCommand, text: string, agent: AgentId | null = null): Teardown | null {
  const cmd = throughRunner(command);
  const tool = toolOf(cmd);
  const rows = TEARDOWNS.rowsOf(tool) ?? TEARDOWNS.rowsOf(tool.replace(/\.(sh|bat|cmd)$/, ''));
  if (!rows) return null;
  const parsed = parseArgs(cmd.args, VALUE_OPTS[tool.replace(/\.(sh|bat)$/, '')] ?? []);
  // a command in a `bash -c` string, an eval or a script fed to a shell reads that shell's input, which the call may feed
  const fedInput = agent === null || !NO_TYPING_INTO_COMMANDS.has(agent) || cmd.pipeIndex > 0 || cmd.nested === 'shell-c' || cmd.nested === 'eval'
    || cmd.redirects.some((r) => r.op.startsWith('<') && !r.op.startsWith('<('));
  const view: View = { ...parsed, args: cmd.args, text, assignments: cmd.assignments, fedInput };
  const row = TEARDOWNS.first(rows, view);
  if (!row) return null;
  return { family: row.family, severity: typeof row.severity === 'function' ? row.severity(view) : row.severity, what: row.what };
}

// ---- resources the session made ---------------------------------------------------------------

const MAKES = /^(?:create|run|deploy|apply|new|add|install|launch|provision)$/;
const REMOVES = /^(?:delete|destroy|remove|rm|uninstall|terminate|teardown)$/;

/**
 * What a cloud or cluster CLI command makes or removes, as one key for both: the tool and its
 * positional words without the verb — the resource's type and name, in whichever order the tool
 * takes them: `gcloud workstations configs create dev-config` and `… configs delete dev-config`,
 * `kubectl create namespace qa` and `kubectl delete namespace qa` are the same resource. Null when
 * the command names no such verb, or no type and name beside it.
 */
export function resourceAct(command: SimpleCommand): { act: 'make' | 'remove'; key: string } | null {
  const cmd = throughRunner(command);
  const tool = toolOf(cmd).replace(/\.(sh|bat|cmd)$/, '');
  if (!VALUE_OPTS[tool]) return null;
  const parsed = parseArgs(cmd.args, [...VALUE_OPTS[tool], '-f', '--filename']);
  const words = parsed.operands;
  const at = words.findIndex((w) => MAKES.test(w) || REMOVES.test(w));
  if (at < 0) return null;
  const act = MAKES.test(words[at]) ? 'make' : 'remove';
  // Where it lives: the same name in another namespace, context, project or region is another resource.
  const scope = SCOPE_OPTS.map((o) => optionValues(cmd.args, [o])[0] ?? '').join(' ').trim();
  // `kubectl apply -f app.yaml` then `kubectl delete -f app.yaml`: the manifest names what both act on.
  const manifest = tool === 'kubectl' || tool === 'oc' ? optionValues(cmd.args, ['-f', '--filename'])[0] : undefined;
  if (manifest && !/[*$`]/.test(manifest)) return { act, key: `${tool} -f ${manifest} ${scope}` };
  const rest = [...words.slice(0, at), ...words.slice(at + 1)];
  if (rest.length < 2 || rest.some((w) => /[*$`]/.test(w))) return null;
  return { act, key: `${[tool, ...rest].join(' ')} ${scope}` };
}
const SCOPE_OPTS = ['-n', '--namespace', '--context', '--cluster', '--project', '--region', '--zone', '--profile', '--subscription', '-g', '--resource-group'];

/**
 * Did a make command's output say it made something new? `apply`, `deploy`, `install` and `up`
 * also update what exists ("configured", "unchanged"): only "created" makes it the session's.
 */
export function madeNew(command: SimpleCommand, output: string): boolean {
  const words = command.args.filter((a) => !a.startsWith('-'));
  if (words.includes('create')) return true;
  return /\bcreated\b/i.test(output.slice(0, 20_000));
}

// ---- HTTP DELETE on search indexes --------------------------------------------------------------

const ES_PATH = /(^|\/)(_all|\*|[^/?]*\*[^/?]*)(\/?$|\?|\/_delete_by_query)|\/_delete_by_query\b|\/_data_stream\/|\/_index_template\//;
const ES_HOST = /(^|[.-])(elastic(search)?|opensearch|es|kibana)([.-]|$)|\.es\.|\.aws\.found\.io$|\.elastic-cloud\.com$|\.es\.amazonaws\.com$/;

/**
 * `curl -X DELETE http://host:9200/<index>` (also httpie/xh `DELETE url`): an Elasticsearch or
 * OpenSearch index deleted. Generic REST DELETEs of one record are not reported; an index on a
 * local development node is a warning, `_all`, wildcards and remote clusters critical.
 */
export function searchIndexDeletion(cmd: SimpleCommand): Teardown | null {
  const { name, args } = cmd;
  let urls: string[] = [];
  if (name === 'curl') {
    const method = [...optionValues(args, ['-X', '--request']), ...args.filter((a) => /^-XDELETE$/i.test(a)).map(() => 'DELETE')];
    const byQuery = args.some((a) => /\/_delete_by_query\b/.test(a)) && /match_all/.test(args.join(' '));
    if (!byQuery && !method.some((m) => /^delete$/i.test(m))) return null;
    urls = args.filter((a) => /^(https?:\/\/)?[\w.-]+(:\d+)?\//i.test(a) && !a.startsWith('-'));
  } else if (name === 'http' || name === 'https' || name === 'xh') {
    const i = args.findIndex((a) => /^delete$/i.test(a));
    if (i < 0) return null;
    urls = args.slice(i + 1, i + 2);
  } else {
    return null;
  }
  for (const raw of urls) {
    const url = /^https?:\/\//i.test(raw) ? raw : `http://${raw}`;
    const host = hostOfUrl(url);
    if (!host) continue;
    const port = /^https?:\/\/[^/]*:(\d+)/i.exec(url)?.[1];
    const path = url.replace(/^https?:\/\/[^/]*/i, '');
    const hosted = searchServiceIndex(host, port, path);
    if (hosted) return { family: 'data', severity: isLocalHost(host) ? 'warning' : 'critical', what: hosted };
    const isSearch = port === '9200' || port === '9243' || ES_HOST.test(host) || /\/_(delete_by_query|data_stream|index_template|alias)/.test(path);
    if (!isSearch || path === '' || path === '/') continue;
    const everything = ES_PATH.test(path);
    return {
      family: 'data',
      severity: everything || !isLocalHost(host) ? 'critical' : 'warning',
      what: everything ? 'every Elasticsearch/OpenSearch index matching a wildcard deleted' : `the Elasticsearch/OpenSearch index ${path.replace(/^\/|\?.*$/g, '')} deleted`,
    };
  }
  return null;
}

/**
 * Other search services' index deletions: Meilisearch (`:7700/indexes/<uid>`), Algolia
 * (`*.algolia.net/1/indexes/<name>`), Typesense (`:8108/collections/<name>`). Deleting one
 * document (`…/documents/<id>`) is not an index.
 */
function searchServiceIndex(host: string, port: string | undefined, path: string): string | null {
  const clean = path.replace(/[?#].*$/, '').replace(/\/+$/, '');
  if ((port === '7700' || /meili/.test(host)) && /^\/indexes\/[^/]+$/.test(clean)) return `the Meilisearch index ${clean.slice('/indexes/'.length)} deleted`;
  if (/(^|\.)algolia(net)?\.(net|com|io)$/.test(host) && /^\/1\/indexes\/[^/]+$/.test(clean)) return `the Algolia index ${clean.slice('/1/indexes/'.length)} deleted`;
  if ((port === '8108' || /typesense/.test(host)) && /^\/collections\/[^/]+$/.test(clean)) return `the Typesense collection ${clean.slice('/collections/'.length)} deleted`;
  return null;
}
