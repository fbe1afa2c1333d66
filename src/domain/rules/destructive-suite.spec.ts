// A labelled suite of commands, the way command guards are measured: each is "block" (it destroys
// data, work, machines or cloud resources and must raise a destructive warning or critical) or
// "allow" (ordinary work that must raise none). Every command runs alone in a session whose cwd is
// /home/dev/project. The suite reports the block-flag and false-alarm rates and holds them to the
// targets (≥ 90 % flagged, ≤ 1 % false alarms). Written for Vouch; a command that moves between
// labels needs a reason in the rules README.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cmd, runRules, severityOf } from './harness.testing.ts';
import type { FindingDraft } from './types.ts';

const BLOCK: string[] = [
  // rm in every spelling and through every wrapper
  'rm -rf /', 'rm -rf /*', 'rm -rf ~', 'rm -rf ~/', 'rm -rf $HOME', 'rm -fr ~/Documents', 'rm -r -f /etc', 'rm --recursive --force /usr',
  'sudo rm -rf /var/lib', 'rm -rf --no-preserve-root /', 'rm -rf ..', 'rm -rf ../other-project', 'rm -rf *', 'rm -rf .*', 'rm -rf ./',
  'rm -rf .', 'rm -rf .git', '/bin/rm -rf ~', '\\rm -rf ~', 'command rm -rf ~', 'busybox rm -rf /', 'env rm -rf /', 'env - rm -rf ~',
  'env -i rm -rf /', 'env -S "rm -rf /"', 'nice rm -rf ~', 'nice -n 19 rm -rf /', 'nohup rm -rf ~ &', 'timeout 10 rm -rf ~',
  'time rm -rf /', 'ionice -c3 rm -rf /', 'stdbuf -o0 rm -rf ~', 'doas rm -rf /', 'sudo -u root rm -rf /etc',
  'true & rm -rf ~/projects', 'cd / && rm -rf usr', 'cd ~ && rm -rf *', 'ls && rm -rf /home/dev/other', 'rm -rf /home/dev',
  'rm -Rf /opt/../etc', 'rm -rf "$HOME/"', 'rm -rf ~/.ssh',
  // find, xargs, parallel
  'find / -delete', 'find ~ -type f -delete', 'find /etc -exec rm -rf {} +', 'find ~ -name "*.txt" -exec rm -rf {} \\;',
  'find . -delete', 'find / -name "*.log" -delete', 'find ~ -mindepth 1 -exec rm -r {} +', 'find / | xargs rm -rf',
  'find ~ -type d | xargs rm -rf', 'echo / | xargs rm -rf', 'ls ~ | xargs rm -rf', 'parallel rm -rf ::: ~ /etc',
  'find ~/code -name node_modules -prune -exec rm -rf {} +', 'fd . ~ -x rm -rf',
  // interpreters and heredocs
  `python -c "import shutil; shutil.rmtree('/')"`, `python3 -c 'import os; os.system("rm -rf ~")'`,
  `node -e "require('child_process').execSync('rm -rf /')"`, `node -e "fs.rmSync('/', {recursive:true})"`,
  `ruby -e 'FileUtils.rm_rf("/")'`, `perl -e 'system("rm -rf /")'`, 'python3 <<EOF\nimport subprocess\nsubprocess.run(["rm","-rf","/"])\nEOF',
  'bash -c "$(cat <<EOF\nrm -rf /\nEOF\n)"', 'sh <<EOF\nrm -rf /\nEOF', 'bash <<< "rm -rf ~"', `python3 -c "import shutil, os; shutil.rmtree(os.path.expanduser('~'))"`,
  `node -e "require('fs').rmSync(require('os').homedir(), { recursive: true, force: true })"`, `perl -MFile::Path -e 'rmtree("/etc")'`,
  `ruby -e 'system("rm -rf ~")'`, "ruby -e '`rm -rf /`'", `php -r 'shell_exec("rm -rf /");'`, `python -c "import subprocess; subprocess.call('rm -rf /', shell=True)"`,
  `node -e "const {spawnSync} = require('child_process'); spawnSync('rm', ['-rf', '/'])"`, 'python3 - <<PY\nimport shutil\nshutil.rmtree("/etc")\nPY',
  'node <<EOF\nrequire("child_process").execSync("git reset --hard")\nEOF', 'bash -c "git reset --hard HEAD"', `sh -c 'find / -delete'`,
  'eval "rm -rf ~"', 'python3 -c "import os; os.system(\'git push --force origin main\')"',
  // git
  'git reset --hard', 'git reset --hard HEAD~3', 'git reset --merge', 'git checkout -- .', 'git checkout .', 'git checkout -f main',
  'git checkout --force develop', 'git switch --discard-changes main', 'git switch -f main', 'git restore .', 'git restore --worktree .',
  'git clean -fdx', 'git clean -fd', 'git clean -f', 'git branch -D feature', 'git branch --delete --force old', 'git stash drop',
  'git stash clear', 'git worktree remove --force ../wt', 'git filter-branch --tree-filter "rm -f secrets" HEAD', 'git filter-repo --path secrets --invert-paths',
  'git push --force origin main', 'git push -f origin master', 'git push origin +main', 'git push --mirror origin', 'git push origin --delete main',
  'git push origin :master', 'git push --force origin feature/x', 'git rm -rf .', 'git reflog expire --expire=now --all', 'git gc --prune=now',
  // disks, permissions
  'dd if=/dev/zero of=/dev/sda', 'mkfs.ext4 /dev/sdb1', 'wipefs -a /dev/nvme0n1', 'shred -u ~/notes.txt', 'chmod -R 777 /', 'sudo chmod -R 777 /etc',
  'chown -R nobody /', 'sudo chown -R dev:dev /usr', 'chmod -R 000 /usr/bin', 'chmod 777 /etc/passwd', 'chmod -R a+w ~',
  // databases and data stores
  'psql -c "DROP TABLE users"', 'mysql -e "DROP DATABASE shop"', 'psql -c "TRUNCATE orders"', 'sqlite3 app.db "DELETE FROM users"',
  'dropdb production', 'redis-cli FLUSHALL', 'redis-cli -h cache.internal flushdb', `mongosh shop --eval "db.dropDatabase()"`,
  'docker exec -it db psql -U postgres -c "DROP DATABASE app"', 'kubectl exec -it pg-0 -- psql -c "DROP SCHEMA public CASCADE"',
  'rails db:drop', 'bin/rails db:reset', 'RAILS_ENV=production rake db:drop', 'prisma migrate reset --force', 'supabase db reset --linked',
  'python manage.py flush --noinput', 'php artisan migrate:fresh', 'cqlsh -e "DROP KEYSPACE app"', 'psql -c "ALTER TABLE users DROP COLUMN email"',
  'curl -X DELETE http://localhost:9200/logs-2024', 'curl -XDELETE "https://search.example.com:9200/_all"', 'curl -X DELETE es.internal:9200/products',
  'curl --request DELETE https://my-deploy.es.us-east-1.aws.found.io/orders', 'kafka-topics --bootstrap-server kafka:9092 --delete --topic orders',
  'kafka-topics.sh --delete --topic events --bootstrap-server localhost:9092', 'rpk topic delete orders', 'vault kv delete secret/app',
  'vault kv metadata delete secret/app', 'vault secrets disable kv', 'vault kv destroy -versions=1 secret/app', 'firebase firestore:delete --all-collections',
  'docker volume rm pgdata', 'docker volume prune -f', 'docker compose down -v', 'docker-compose down --volumes',
  // cloud, clusters, platforms
  'aws ec2 terminate-instances --instance-ids i-0abc', 'aws rds delete-db-instance --db-instance-identifier prod', 'aws rds delete-db-cluster --db-cluster-identifier main',
  'aws dynamodb delete-table --table-name users', 'aws iam delete-user --user-name deploy', 'aws iam delete-role --role-name app', 'aws lambda delete-function --function-name api',
  'aws ecr delete-repository --repository-name app --force', 'aws s3 rb s3://bucket --force', 'aws s3 rm s3://bucket --recursive', 'aws --region eu-west-1 cloudformation delete-stack --stack-name app',
  'aws kms schedule-key-deletion --key-id abc', 'aws eks delete-cluster --name prod', 'gcloud sql instances delete prod-db', 'gcloud compute instances delete vm-1 --zone us-central1-a',
  'gcloud storage rm -r gs://bucket', 'gsutil rm -r gs://bucket', 'gsutil -m rm -r gs://bucket/data', 'gcloud storage buckets delete gs://bucket', 'gcloud projects delete my-project',
  'gcloud container clusters delete prod', 'az group delete --name rg-prod --yes', 'az vm delete -g rg -n vm1', 'az storage account delete -n acct', 'az sql db delete -g rg -s srv -n db',
  'docker system prune -af', 'docker system prune -af --volumes', 'docker rm -f $(docker ps -aq)', 'docker ps -aq | xargs docker rm -f', 'docker rmi -f $(docker images -q)',
  'kubectl delete namespace production', 'kubectl delete ns staging', 'kubectl delete deployments --all', 'kubectl delete pods --all -n prod', 'kubectl delete all --all -A',
  'kubectl delete pvc data-postgres-0', 'kubectl delete -f k8s/', 'kubectl delete deployment api -n production', 'helm uninstall api', 'helm delete web --namespace prod',
  'terraform destroy', 'terraform destroy -auto-approve', 'terraform apply -destroy', 'tofu destroy', 'pulumi destroy --yes', 'cdk destroy --force',
  'gh repo delete org/app --yes', 'gh secret delete API_KEY', 'gh release delete v1.0.0 --yes', 'glab repo delete group/app', 'heroku apps:destroy --app my-app --confirm my-app',
  'heroku pg:reset DATABASE_URL --confirm my-app', 'fly apps destroy my-app', 'flyctl volumes destroy vol_123', 'doctl compute droplet delete web-1',
  'vercel remove my-project --yes', 'serverless remove --stage prod',
  // the machine itself
  ':(){ :|:& };:', 'kill -9 -1', 'mv ~ /tmp/old-home', 'sudo mv /etc /etc.bak', 'crontab -r', 'sudo iptables -F', 'sudo shutdown -h now',
  'sudo systemctl stop sshd', `awk 'BEGIN { system("rm -rf /") }'`, 'printf / | xargs rm -rf', 'parallel rm -rf {1} ::: /',
  `python -c "__import__('os').system('rm -rf /')"`, 'npx prisma migrate reset --force', 'bundle exec rails db:drop', 'rm -rf $(pwd)', 'podman system reset',
  'kubectl delete secret app-secrets', 'srm -r ~/secret',
  // single files restored over changes the agent did not make; backups, secrets managers, queues, search services
  'git checkout -- package-lock.json', 'git restore src/app.ts', 'git checkout HEAD~1 -- src/a.ts', 'git rm -f src/old.ts',
  'rclone purge remote:backups', 'rsync -a --delete ./ /mnt/backup/', 'restic forget --keep-last 1 --prune', 'borg delete ::archive-2024',
  'velero backup delete nightly --confirm', 'doppler secrets delete API_KEY', 'op vault delete Engineering', 'nats stream purge ORDERS',
  'rabbitmqctl delete_vhost /prod', 'curl -X DELETE http://localhost:7700/indexes/movies', 'aws s3 sync ./empty s3://backups --delete',
];

const ALLOW: string[] = [
  // ordinary deletes
  'rm -rf node_modules', 'rm -rf dist build', 'rm -rf ./build', 'rm -rf /tmp/x', 'rm -rf /tmp/build-*', 'rm -rf .next coverage', 'rm -rf src/generated',
  'rm -f package-lock.json', 'rm file.txt', 'rm -r tests/fixtures/old', 'rm -rf target', 'rm -rf __pycache__ .pytest_cache', 'rm -rf "$TMPDIR/cache"',
  'rm -rf "$BUILD_DIR"', 'rm -f /etc/hosts.bak', 'rm -rf ./tmp && mkdir tmp', 'cd /tmp && rm -rf scratch', 'rm -i important.txt', 'rmdir empty-dir',
  'find . -name "*.pyc" -delete', 'find . -name __pycache__ -type d -exec rm -rf {} +', 'find ./dist -name "*.map" -delete', 'find . -type f -name "*.log" -exec rm {} \\;',
  'find /tmp -name "*.tmp" -delete', 'find . -name node_modules -prune', 'find . -name "*.ts" | xargs grep TODO', 'find . -type f -name "*.orig" | xargs rm -f',
  'find src -name "*.test.js" -print', 'ls *.log | xargs rm', 'git ls-files -z | xargs -0 wc -l', 'echo build dist | xargs rm -rf', 'fd -e pyc -x rm',
  // mentions, not executions
  'echo "rm -rf /"', 'grep -rn "rm -rf" scripts/', `git commit -m "docs: never run rm -rf ~ or DROP TABLE users"`, 'cat > notes.md <<EOF\nrm -rf /\ngit reset --hard\nEOF',
  "printf 'terraform destroy\\n' >> RUNBOOK.md", 'rg "git push --force" docs', 'man rm', 'which rm', 'type rm', 'command -v rm', 'history | grep "rm -rf"',
  'echo "kubectl delete ns prod" > cleanup.txt', `sed -i 's/rm -rf \\//echo/' script.sh`, 'alias rmrf="echo no"', 'tldr rm',
  // interpreters that do nothing destructive
  "python -c 'print(1)'", `python3 -c "import os; print(os.getcwd())"`, `node -e "console.log(require('os').homedir())"`, "ruby -e 'puts 1'", "perl -e 'print 42'",
  `python3 -c "import shutil; shutil.rmtree('build')"`, `node -e "fs.rmSync('dist', {recursive: true, force: true})"`, `python -c "import subprocess; subprocess.run(['ls', '-la'])"`,
  `node -e "require('child_process').execSync('npm test')"`, 'python3 <<EOF\nprint("rm -rf /")\nEOF', `python3 -c "import os; os.remove('out.txt')"`, "node -e 'console.log(`rm -rf ${x}`)'",
  `python -c "import json,sys; print(json.load(sys.stdin))"`, `ruby -e 'FileUtils.rm_rf("tmp/cache")'`, 'python3 scripts/cleanup.py', 'node -p "process.version"',
  `python3 -c "import re; re.sub('a', 'b', 'c')"`, `perl -ne 'print if /error/' app.log`, `python -c "import asyncio; asyncio.run(main())"`,
  // git
  'git checkout -b feature', 'git checkout main', 'git switch main', 'git switch -c fix/typo', 'git push --force-with-lease', 'git restore --staged .',
  'git push --force-with-lease origin feature/x', 'git reset --soft HEAD~1', 'git reset HEAD file.ts', 'git reset', 'git clean -n', 'git clean -nd', 'git clean --dry-run -fd',
  'git branch -d merged-branch', 'git stash', 'git stash list', 'git stash pop', 'git stash apply', 'git push origin main', 'git push -u origin feature/x',
  'git push origin --delete feature/old', 'git push --tags', 'git worktree remove ../wt', 'git worktree add ../wt main', 'git fetch --prune', 'git gc',
  'git rm --cached secrets.env', 'git rm old.ts', 'git log --oneline', 'git diff', 'git status', 'git rebase main', 'git merge feature', 'git checkout --ours src/a.ts',
  'git filter-repo --analyze', 'git reflog', 'git commit -am "fix"', 'git cherry-pick abc123', 'git branch -m old new', 'git tag -d v0.1',
  // disks, permissions
  'dd if=/dev/zero of=./disk.img bs=1M count=10', 'dd if=big.bin of=/dev/null', 'mkfs.ext4 ./disk.img', 'shred -u /tmp/key.tmp', 'chmod +x scripts/run.sh',
  'chmod 755 bin/cli', 'chmod -R 755 dist', 'chmod 644 README.md', 'sudo chown -R www-data:www-data /var/www/app', 'chown -R dev:dev .', 'chmod 600 ~/.ssh/id_ed25519',
  'chmod -R u+w node_modules', 'chmod 777 /tmp/build.sock', 'chmod -R g+w shared', 'sudo chmod 755 /usr/local/bin/tool', 'chown dev file.txt',
  // databases
  'psql -c "DELETE FROM sessions WHERE id = 1"', 'psql -c "SELECT count(*) FROM users"', 'sqlite3 :memory: "DROP TABLE t"', 'sqlite3 /tmp/test.db "DROP TABLE t"',
  'mysql -e "SHOW TABLES"', 'grep -rn "DROP TABLE" migrations/', 'redis-cli GET key', 'redis-cli DEL session:123', 'mongosh --eval "db.users.find()"', 'createdb app_test',
  'rails db:migrate', 'rails db:seed', 'prisma migrate dev', 'prisma generate', 'supabase start', 'python manage.py migrate', 'php artisan migrate', 'psql -c "DROP INDEX idx_users"',
  'curl -X DELETE https://api.example.com/users/42', 'curl http://localhost:9200/_cat/indices', 'curl -X GET localhost:9200/logs/_search', 'kafka-topics --list --bootstrap-server kafka:9092',
  'kafka-topics --create --topic orders --bootstrap-server kafka:9092', 'vault kv get secret/app', 'vault kv put secret/app key=value', 'vault secrets list',
  'firebase deploy', 'docker volume ls', 'docker volume create pgdata', 'docker compose down', 'psql -c "ALTER TABLE users DROP CONSTRAINT users_email_key"',
  // cloud, clusters, platforms
  'aws s3 ls', 'aws s3 cp file s3://bucket/', 'aws s3 rm s3://bucket/file.txt', 'aws ec2 describe-instances', 'aws sqs delete-message --queue-url q --receipt-handle r',
  'aws s3api delete-object --bucket b --key k', 'aws dynamodb delete-item --table-name t --key k', 'aws ec2 delete-tags --resources i-1 --tags Key=a', 'aws sts get-caller-identity',
  'gcloud compute instances list', 'gcloud config set project x', 'gcloud auth login', 'gsutil ls gs://bucket', 'gsutil rm gs://bucket/one.txt', 'az vm list', 'az login',
  'docker rm my-container', 'docker rm -f web', 'docker rmi app:old', 'docker image prune', 'docker image prune -f', 'docker container prune -f',
  // unforced, the prune asks [y/N] and Claude Code's shell has nobody to type the y (issue 27)
  'docker system prune -a --volumes', 'docker volume prune', 'docker ps -a', 'docker compose up -d',
  'docker build -t app .', 'kubectl delete pod api-7f9c', 'kubectl get ns', 'kubectl apply -f k8s/', 'kubectl rollout restart deployment/api', 'kubectl logs api',
  'helm install api ./chart', 'helm upgrade api ./chart', 'helm list', 'terraform plan -destroy', 'terraform plan', 'terraform apply', 'terraform init', 'pulumi preview',
  'gh repo view', 'gh pr create --fill', 'gh secret set API_KEY', 'gh secret list', 'gh release create v1.0.0', 'heroku logs --tail', 'fly deploy', 'fly apps list',
  'vercel deploy --prod', 'serverless deploy', 'doctl compute droplet list', 'npm run clean', 'make clean', 'cargo clean', 'mvn clean', 'gradle clean', 'npm uninstall lodash',
  'pip uninstall -y requests', 'brew uninstall wget', 'trash ~/old', 'docker network rm appnet', 'kubectl delete configmap -n dev',
  // the machine itself
  "awk '{print $1}' data.csv", `awk 'BEGIN { system("ls") }'`, 'kill -9 1234', 'kill %1', 'pkill -f vite', 'systemctl restart nginx', 'crontab -l',
  'mv src/old.ts src/new.ts', 'printf x | xargs echo', 'parallel echo ::: a b', 'iptables -L -n', 'uptime', 'npx prisma generate', 'npx jest --watch',
  'bundle exec rspec', 'uv run pytest', 'rm -rf "$(pwd)/dist"', 'kubectl get secret app-secrets',
  'srm notes.txt', 'shred -u ./key.pem', 'rsync -a --delete src/ dist/', 'rclone copy ./dist remote:site', 'rclone ls remote:backups',
  'restic snapshots', 'borg list ::', 'doppler secrets get API_KEY', 'op item get Login', 'nats stream ls', 'curl http://localhost:7700/indexes',
];

/** Findings that count as "flagged": destructive findings and world-writable modes at warning or critical. */
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

test('the labelled suite is big enough to measure and has no command in both lists', () => {
  assert.ok(BLOCK.length >= 200, `block cases: ${BLOCK.length}`);
  assert.ok(ALLOW.length >= 200, `allow cases: ${ALLOW.length}`);
  const both = BLOCK.filter((c) => ALLOW.includes(c));
  assert.deepEqual(both, []);
});

test('at least 90 % of the block cases raise a destructive warning or critical', async () => {
  const results = await verdicts(BLOCK);
  const missed = BLOCK.filter((c) => results.get(c)!.length === 0);
  const rate = 1 - missed.length / BLOCK.length;
  console.log(`destructive suite: ${BLOCK.length - missed.length}/${BLOCK.length} block cases flagged (${(rate * 100).toFixed(1)} %)`);
  if (missed.length > 0) console.log(`  missed: ${missed.map((m) => JSON.stringify(m)).join(', ')}`);
  assert.ok(rate >= 0.9, `flagged ${(rate * 100).toFixed(1)} %; missed: ${missed.join(' | ')}`);
});

test('at most 1 % of the allow cases raise a destructive warning or critical', async () => {
  const results = await verdicts(ALLOW);
  const alarms = ALLOW.filter((c) => results.get(c)!.length > 0);
  const rate = alarms.length / ALLOW.length;
  console.log(`destructive suite: ${alarms.length}/${ALLOW.length} false alarms (${(rate * 100).toFixed(1)} %)`);
  if (alarms.length > 0) console.log(`  false alarms: ${alarms.map((a) => `${JSON.stringify(a)} → ${results.get(a)!.join(', ')}`).join('; ')}`);
  assert.ok(rate <= 0.01, `false alarms ${(rate * 100).toFixed(1)} %: ${alarms.join(' | ')}`);
});
