// The held-out measure, reproduced: command guards publish their own test cases — commands they
// must block and commands they must allow — and Vouch is measured by how many of the block cases
// it flags (a destructive warning or critical) and how many allow cases it flags wrongly. This
// suite is written for Vouch after reading the cases of two public guards (destructive_command_guard's
// packs and corpus, cc-safety-net's rm/git/find/xargs/parallel/interpreter tests): the same kinds
// of command, not their code. Every command runs alone in a session whose cwd is /home/dev/project.
//
// Where Vouch deliberately differs from a guard the case is kept and counted against Vouch (a
// guard decides before a command runs and blocks what it cannot read; Vouch judges what a session
// did): `rm -r` without -f of an outside path is still a recursive delete (a guard allows it since rm
// may prompt), an interpreter given shell text (`node -e "rm -rf /"`) is a syntax error that deletes
// nothing, `rm -rf $TMPDIR/../x` points nowhere Vouch can place, `docker container prune` removes
// only stopped containers. The shares are printed; the targets are the issue's (≥ 90 % caught,
// ≤ 1 % flagged).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, runRules, severityOf } from './harness.testing.ts';
import type { FindingDraft } from './types.ts';

const BLOCK: string[] = [
  // git
  'git checkout -- file.txt', 'git checkout -- file1.txt file2.txt', 'git checkout HEAD -- file.txt', 'git checkout HEAD file.txt',
  'git checkout main a.txt b.txt', 'git checkout HEAD --pathspec-from-file=paths.txt', 'git checkout -qf main', 'git checkout -f -b new-branch',
  'git restore file.txt', 'git restore a.txt b.txt', 'git restore --worktree file.txt', 'git restore --staged --worktree file.txt',
  'git restore -S -W file.txt', 'git reset -q --hard', 'echo ok | git reset --hard', 'git -C repo reset --hard',
  'git --git-dir=repo/.git reset --hard', 'sudo env VAR=1 git reset --hard', 'env -- git reset --hard', 'command -- git reset --hard',
  'env -u PATH git reset --hard', "sh -c 'git reset --hard'", "sh -lc 'git reset --hard'", 'git clean --force', 'git clean -nf',
  'git clean -n && git clean -f', 'git clean -xf', 'git clean -d -f', 'git push --force', 'git push -f', 'git push -uf origin main',
  'git push --force=true origin main', 'git branch -Dv feature', 'git stash drop stash@{0}', 'git worktree remove -f /tmp/wt',
  'git rm -f src/main.rs', 'git update-ref -d refs/heads/main', 'git read-tree --reset -u HEAD', '/usr/bin/git reset --hard', "\\git reset --hard",
  'git status || git reset --hard', 'echo $(git reset --hard )', 'echo ok | xargs git reset --hard', 'parallel git reset --hard ::: ok',
  "echo ok | xargs bash -c 'git reset --hard'", "parallel bash -c 'git reset --hard' ::: ok", "env -S 'PATH=/usr/bin' git reset --hard",
  'env -C /tmp git reset --hard', 'FOO=1 BAR=2 git reset --hard', 'sudo -u root -- git reset --hard', 'GIT CHECKOUT -- file',
  'git -c foo=bar reset --hard', 'git --no-pager reset --hard', "python3 - <<'PY2'\ngit branch -D main\nPY2",
  // rm and its wrappers
  'git rm -r --force src', 'rm -rf /some/path', 'rm -Rf /some/path', 'rm -R -f /some/path', 'rm -rf -- /', 'rm -rf /tmp/../Users/some/path',
  'busybox rm -rf /some/path', 'busybox rm -R -f /some/path', "bash -c 'rm -rf /some/path'", 'echo $(rm -rf /some/path)',
  'TMPDIR=/Users rm -rf $TMPDIR/test-dir', 'rm -rf $TMPDIR/../escape', 'rm -rf `pwd`/escape', 'rm -rf ~someone/escape', 'rm -rf $HOME/*',
  'rm -rf ${HOME}/*', 'cd .. && rm -rf build', '{ cd ..; rm -rf build; }', '( cd ..; rm -rf build )', 'pushd .. && rm -rf build',
  'rm -rf $PWD/../other', 'rm   -rf   /', 'rm -f -r /', 'aws s3 rm s3://my-bucket --recursive', 'gcloud storage rm -r gs://bucket',
  'gsutil rm -r gs://bucket', 'gsutil -m rm -r gs://bucket/dir', 'terraform state rm aws_instance.web', 'docker volume rm pgdata',
  'docker rm -f $(docker ps -aq)',
  // find, xargs, parallel
  'echo / | xargs rm -rf', "echo / | xargs --delimiter '\\n' rm -rf", 'echo / | xargs -n1 rm -rf', 'echo / | xargs -P2 rm -rf',
  'echo / | xargs -i rm -rf', 'echo / | xargs -I{} rm -rf {}', "echo / | xargs -I{} bash -c 'rm -rf {}'", 'echo / | xargs busybox rm -rf',
  'find . -print0 | xargs -0 rm -rf', 'echo ok | xargs find . -delete', 'echo / | parallel rm -rf', 'parallel rm -rf ::: /',
  'parallel rm -rf {} ::: /', 'parallel -j2 rm -rf {} ::: /', "parallel bash -c 'rm -rf {}' ::: /", "parallel ::: 'rm -rf /'",
  'parallel rm -rf {} ::: build /', 'parallel find . -delete ::: ok', 'busybox find . -delete', 'echo $(find . -delete )', 'find / -delete',
  'find ~ -name "*.log" -delete', "find /etc -exec rm -rf {} \\;", 'find ~ -type f -exec rm {} +', 'find . -exec rm -rf {} +',
  // interpreters and heredocs
  "python -c 'import os; os.system(\"rm -rf /some/path\")'", 'node -e "rm -rf /"', 'ruby -e "rm -rf /"', 'perl -e "rm -rf /"',
  "python -c \"import shutil; shutil.rmtree('/home/user')\"", "python3 -c \"import shutil; shutil.rmtree('/etc')\"",
  "python3 -c \"import os; os.remove('/etc/passwd')\"", "python3 -c \"import os, shutil; [shutil.rmtree(p) for p in ['/var/lib/postgresql']]\"",
  "node -e \"require('fs').rmSync('/etc', {recursive: true})\"", "node -e \"require('fs').rmdirSync('/home/user', {recursive: true})\"",
  "node -e \"require('child_process').execSync('rm -rf ~')\"", "python3 -c \"import subprocess; subprocess.run('rm -rf ~/*', shell=True)\"",
  "python3 <<'EOF'\nimport shutil\nshutil.rmtree('/var/www')\nEOF", "bash -c \"$(cat <<'EOF'\nrm -rf /\nEOF\n)\"",
  "cd /tmp && python -c \"import os; os.system('rm -rf foo')\"",
  // backups and sync
  'rclone sync /empty remote:important-bucket', 'rclone sync /src remote:important-bucket --delete-before',
  'rclone delete remote:important-bucket/path', 'rclone purge remote:important-bucket', 'rclone deletefile remote:important-bucket/file.txt',
  'rclone move /src remote:important-bucket', 'rsync -a --delete /src/ /dest/', 'rsync -a --delete-after /src/ /dest/',
  'rsync -a --delete /src/ user@host:/dest/', 'rsync -a --delete-excluded /src/ /dest/', 'rsync -av --delete ./ /mnt/backup/',
  'restic forget --keep-last 1 --prune', 'restic prune', 'borg delete repo::archive', 'borg prune --keep-last 1 --keep-daily 7',
  'velero backup delete daily-backup --confirm',
  // cloud
  'aws s3 rb s3://my-bucket --force', 'aws s3api delete-bucket --bucket my-bucket', 'aws s3 sync /empty s3://my-bucket --delete',
  'aws sqs delete-queue --queue-url https://sqs.us-east-1.amazonaws.com/123456789012/my-queue',
  'aws sqs purge-queue --queue-url https://sqs.us-east-1.amazonaws.com/123456789012/my-queue',
  'aws sns delete-topic --topic-arn arn:aws:sns:us-east-1:123456789012:alerts',
  'aws secretsmanager delete-secret --secret-id my/secret --force-delete-without-recovery', 'aws secretsmanager delete-secret --secret-id prod/db',
  'aws ec2 terminate-instances --instance-ids i-123', 'aws rds delete-db-instance --db-instance-identifier prod-db --skip-final-snapshot',
  'aws cloudformation delete-stack --stack-name prod', 'aws logs delete-log-group --log-group-name /app', 'aws route53 delete-hosted-zone --id Z123',
  'gcloud compute instances delete my-vm', 'gcloud sql instances delete prod-db', 'gcloud projects delete my-project',
  'gcloud container clusters delete prod', 'gcloud pubsub topics delete orders', 'gcloud secrets delete api-key',
  'az group delete --name prod-rg --yes', 'az vm delete --name vm1 --resource-group rg', 'az keyvault secret delete --vault-name kv --name s',
  'az storage container delete --name c --account-name a',
  // clusters, containers, infrastructure as code
  'kubectl delete namespace prod', 'kubectl delete ns staging', 'kubectl delete deployment api', 'kubectl delete pods --all',
  'kubectl delete pvc data-0', 'kubectl delete -f deploy.yaml', 'kubectl delete all --all -n prod',
  'kubectl drain node-1 --delete-emptydir-data --force', 'helm uninstall my-release', 'helm delete my-release', 'terraform destroy',
  'terraform destroy -auto-approve', 'terraform apply -destroy', 'pulumi destroy --yes', 'docker system prune -af --volumes',
  'docker volume prune -f', 'docker compose down -v', 'docker rmi -f $(docker images -q)', 'docker container prune -f', 'docker network prune -f',
  'podman system reset',
  // secrets managers
  'vault kv delete secret/myapp/config', 'vault kv destroy -versions=1-3 secret/myapp/config', 'vault secrets disable secret/',
  'vault delete secret/myapp/config', 'vault policy delete myapp-policy', 'doppler secrets delete DATABASE_URL',
  'doppler projects delete backend --yes', 'op item delete "Database Password"', 'op vault delete "Engineering"', 'gh secret delete API_KEY',
  // data stores, search, queues
  "curl -X DELETE 'http://localhost:9200/logs-2024'", "curl -X DELETE 'http://localhost:9200/_all'", "curl -X DELETE 'http://localhost:9200/*'",
  "curl -X DELETE 'https://opensearch.local:9200/sample-index'",
  "curl -X POST 'http://localhost:9200/logs-2024/_delete_by_query' -H 'Content-Type: application/json' -d '{\"query\":{\"match_all\":{}}}'",
  "curl -X DELETE 'http://localhost:7700/indexes/movies'", "curl -X DELETE 'https://APPID-dsn.algolia.net/1/indexes/products'",
  'kafka-topics --bootstrap-server localhost:9092 --delete --topic payments',
  'kafka-consumer-groups --bootstrap-server localhost:9092 --delete --group billing', 'rabbitmqctl delete_vhost /prod',
  'rabbitmqadmin delete queue name=jobs', 'rabbitmqctl purge_queue jobs', 'nats stream delete ORDERS', 'nats stream purge ORDERS',
  'redis-cli FLUSHALL', 'redis-cli -n 0 flushdb', 'mongosh --eval "db.dropDatabase()"', 'psql -c "DROP TABLE users"',
  'mysql -e "DROP DATABASE prod"', 'dropdb mydb',
  // platforms, disks, everything else
  'circleci context delete org/my-org context/prod', 'gitlab-runner unregister --all-runners', 'gh repo delete owner/repo --yes',
  'dd if=/dev/zero of=/dev/sda bs=1M', 'mkfs.ext4 /dev/sdb1', 'shred -u ~/.ssh/id_rsa', 'chmod -R 777 /', 'chown -R nobody /etc',];

const ALLOW: string[] = [
  // git
  'git checkout -b new-branch', 'git checkout --orphan orphan-branch', 'git checkout -bnew-branch', 'git checkout main', 'git checkout -',
  'git checkout --detach main', 'git checkout --conflict=merge main', 'git checkout --recurse-submodules main', 'git switch main',
  'git switch -c feature', 'git switch --detach main', 'git restore --staged file.txt', 'git restore --staged .', 'git restore --help', 'git reset',
  'git reset HEAD', 'git reset --soft HEAD~1', 'git reset HEAD~1', 'git clean -n', 'git clean --dry-run', 'git clean -nd',
  'git push --force-with-lease', 'git push --force-with-lease origin main', 'git push --force-with-lease=refs/heads/main',
  'git push --force-with-lease --force-if-includes origin main', 'git push origin main', 'git push origin feature-f',
  'git push origin hotfix-fallback', 'git worktree remove /tmp/wt', 'git branch -d feature', 'git branch -a', 'git branch feature-new',
  'git branch --merged', 'git stash', 'git stash list', 'git stash pop', 'git stash apply', 'git status', 'git -C repo status',
  'sudo env VAR=1 git status', 'git diff HEAD~1', 'git log --oneline -10', 'git add .', "git commit -m 'test'", 'git pull', 'git fetch --all',
  'git merge feature-branch', 'git rebase main', 'git remote -v', 'git show HEAD', 'git tag v1.0.0', 'git rm src/main.rs', 'git rm -n -rf .',
  'git update-ref refs/heads/main HEAD', 'git checkout --ours file.txt', 'git show origin/main:README.md > /tmp/README.md',
  'git show HEAD:a.txt | less', 'git', 'git --help', 'echo git reset --hard', "printf 'git reset --hard'", "grep 'git checkout -- file' log.txt",
  "sed 's/git reset --hard/safe/' file.txt", 'head git clean -f', 'tail git stash drop', 'less git push --force', 'echo $(git status )',
  'git status;', "echo \"$(printf 'git reset --hard')\"",
  // rm and its wrappers
  'git commit -m "Fix rm -rf detection"', 'git rm -r --cached src', 'echo rm -rf /', "printf 'rm -rf /'", "rg 'rm -rf' .",
  "awk '/rm -rf/ {print}' log.txt", 'wc rm -rf /', 'busybox rm -rf /tmp/test-dir', 'rm -rf /tmp/test-dir', 'rm -rf /var/tmp/test-dir',
  'rm -rf $TMPDIR/test-dir', 'rm -rf ${TMPDIR}/test-dir', 'rm -rf "$TMPDIR/test-dir"', 'rm -rf $TMPDIR', 'rm -rf /tmp', 'rm -rf /tmp/foo..bar/file',
  'rm -r /some/path', 'rm -R /some/path', 'rm -f /some/path', '/bin/rm -rf /tmp/test-dir', 'rm -rf /tmp/foo 2>/dev/null',
  'echo $(rm -rf /tmp/foo 2>/dev/null)', 'rm -rf build', 'rm -rf ./dist', 'rm -rf ./subdir 2>/dev/null', 'rm -rf 123>/dev/null', 'rm -rf /tmp/build',
  'rm -rf /tmp/*', 'rm -rf /tmp/project/build/artifacts', 'rm -rf /var/tmp/*', 'rm -r -f /tmp/build', 'rm --recursive --force /tmp/build',
  'rm -rf -i ./build', 'rm -r --force --interactive=once ./build', 'rm file.txt', 'rm file1.txt file2.txt', 'rm -f file.txt', 'rm -i file.txt',
  'rm -v file.txt', "echo 'rm -rf /'", "grep 'rm -rf' file", 'TMPDIR=/tmp/subdir rm -rf $TMPDIR/test-dir', 'echo $(rm -f /tmp/a )',
  'srm -f old-key.pem', 'docker rm my-container',
  // find, xargs, parallel
  'cat find -delete', 'echo "find . -name *.pyc -delete"', 'rg "find .* -delete" file.txt', 'find . -name "*.pyc" -print',
  'find . -name -delete -print', "find . -exec echo -delete \\; -print", 'echo ok | xargs -n1', 'echo ok | xargs echo', 'echo ok | xargs sudo --',
  'echo ok | xargs busybox rm -f /tmp/test', 'echo ok | xargs find . -name foo', 'echo ok | xargs', 'echo ok | xargs rm -- -rf',
  'parallel find . -name foo ::: ok', 'echo ok | parallel', 'parallel :::', "parallel ::: 'echo ok' 'true'", 'parallel rm -rf {} ::: build',
  "parallel bash -c 'rm -rf {}' ::: build", 'parallel rm -rf {} ::: build dist node_modules', "parallel bash -c 'echo ok' ::: ok",
  'busybox find . -name foo', 'echo $(find . -name foo )', 'mongosh --eval "db.users.find()"',
  // interpreters and heredocs
  "python -c \"print('ok')\"", 'python script.py', "node -e \"console.log('ok')\"", "ruby -e \"puts 'ok'\"", "perl -e \"print 'ok'\"",
  // backups and sync
  'rsync -av src/ dest/', 'rsync -av ./ user@host:/srv/app/', 'rclone copy /src remote:bucket', 'rclone ls remote:bucket',
  'rclone sync remote:bucket /tmp/restore', 'restic snapshots', 'restic backup /srv', 'borg list repo', 'velero backup get',
  // cloud
  'aws s3 ls s3://my-bucket', 'aws s3 cp file.txt s3://my-bucket/', 'aws s3 sync ./dist s3://my-bucket', 'aws sqs list-queues',
  'aws sqs receive-message --queue-url https://sqs.us-east-1.amazonaws.com/123/q',
  'aws sqs send-message --queue-url https://sqs.us-east-1.amazonaws.com/123/q --message-body hi',
  'aws secretsmanager get-secret-value --secret-id my/secret', 'aws secretsmanager list-secrets', 'aws ec2 describe-instances',
  'gcloud compute instances list', 'gcloud secrets versions access latest --secret=api-key', 'az vm list',
  // clusters, containers, infrastructure as code
  'kubectl get pods', 'kubectl describe deployment api', 'kubectl apply -f deploy.yaml', 'kubectl logs api-123', 'kubectl delete pod api-7f9c',
  'helm list', 'helm upgrade --install api ./chart', 'terraform plan', 'terraform plan -destroy', 'terraform init', 'terraform apply',
  'pulumi preview', 'docker ps -a', 'docker images', 'docker compose up -d', 'docker compose down', 'docker image prune -f', 'docker build -t app .',
  // secrets managers
  'vault kv get secret/myapp/config', 'vault kv put secret/myapp/config k=v', 'vault secrets list', 'doppler secrets get DATABASE_URL',
  'op item get "Database Password"', 'gh secret list',
  // data stores, search, queues
  'curl http://localhost:9200/_cat/indices', "curl -X GET 'http://localhost:9200/logs-2024/_search'",
  "curl -X PUT 'http://localhost:9200/logs-2024'", "curl -X POST 'http://localhost:9200/logs-2024/_doc' -d '{\"a\":1}'",
  'curl -X DELETE https://api.example.com/users/42', 'kafka-topics --bootstrap-server localhost:9092 --list',
  'kafka-topics --bootstrap-server localhost:9092 --describe --topic payments', 'rabbitmqctl list_queues', 'nats stream ls', 'redis-cli GET key',
  'redis-cli DEL session:1', 'psql -c "SELECT 1"', 'psql -c "DELETE FROM sessions WHERE id = 1"', 'mysql -e "SHOW TABLES"',
  // platforms, disks, everything else
  "bash -c 'echo ok'", 'ls -la', 'cat file.txt', 'echo "$(( foo + bar ))"', 'FOO=1', "bash -- -c 'echo ok'", 'bash -l echo ok', 'srm notes.txt',
  'circleci context list github my-org', 'gh repo view', 'dd if=/dev/zero of=./disk.img bs=1M count=10', 'chmod -R 755 dist', 'chmod +x run.sh',
  'npm run clean', 'make clean', 'cargo clean', 'npm test', 'pytest -x',];

/** Flagged as a guard would block: a destructive finding, or world-writable modes, at warning or critical. */
function flagged(drafts: FindingDraft[]): string[] {
  return drafts
    .filter((d) => (d.rule.startsWith('destructive/') || d.rule === 'permissions/world-writable') && severityOf(d) !== 'info')
    .map((d) => `${d.rule}:${severityOf(d)}`);
}

async function verdicts(commands: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const c of commands) out.set(c, flagged(await runRules([cmd(c)])));
  return out;
}

test('the guard-modelled suite is big enough to measure and has no command in both lists', () => {
  assert.ok(BLOCK.length >= 200, `block cases: ${BLOCK.length}`);
  assert.ok(ALLOW.length >= 200, `allow cases: ${ALLOW.length}`);
  assert.deepEqual(BLOCK.filter((c) => ALLOW.includes(c)), []);
});

test('guard block cases: at least 90 % are flagged', async () => {
  const results = await verdicts(BLOCK);
  const missed = BLOCK.filter((c) => results.get(c)!.length === 0);
  const rate = 1 - missed.length / BLOCK.length;
  console.log(`guard suites: ${BLOCK.length - missed.length}/${BLOCK.length} block cases caught (${(rate * 100).toFixed(1)} %)`);
  if (missed.length > 0) console.log(`  missed: ${missed.map((m) => JSON.stringify(m)).join(', ')}`);
  assert.ok(rate >= 0.9, `caught ${(rate * 100).toFixed(1)} %; missed: ${missed.join(' | ')}`);
});

test('guard allow cases: at most 1 % are flagged', async () => {
  const results = await verdicts(ALLOW);
  const alarms = ALLOW.filter((c) => results.get(c)!.length > 0);
  const rate = alarms.length / ALLOW.length;
  console.log(`guard suites: ${alarms.length}/${ALLOW.length} allow cases flagged (${(rate * 100).toFixed(1)} %)`);
  if (alarms.length > 0) console.log(`  flagged: ${alarms.map((a) => `${JSON.stringify(a)} → ${results.get(a)!.join(', ')}`).join('; ')}`);
  assert.ok(rate <= 0.01, `flagged ${(rate * 100).toFixed(1)} %: ${alarms.join(' | ')}`);
});
