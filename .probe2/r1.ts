import { refusal } from '../src/domain/rules/outcome.ts';
const res = (output: string, exitCode: number | null) => ({ kind: 'tool_result', index: 1, line: 2, at: null, callId: 'c1', output, exitCode, isError: exitCode !== 0 && exitCode !== null, denied: false } as any);
const show = (label: string, r: any) => console.log(label.padEnd(60), JSON.stringify(r));
// 1 missing check runs before the wrapper exclusion
show('docker exec, inner docker not found', refusal(res('sh: 1: docker: not found', 127), 'run', undefined, `docker exec app sh -c 'rm -rf /data; docker ps'`));
show('kubectl exec, inner kubectl not found', refusal(res('sh: kubectl: not found', 127), 'run', undefined, `kubectl exec deploy/api -- sh -c 'psql -c "DROP TABLE users" && kubectl get pods'`));
show('ssh w/ cmd, remote ssh not found', refusal(res('bash: line 1: ssh: command not found', 127), 'run', undefined, `ssh prod 'rm -rf /var/lib/app; ssh backup true'`));
// 2 ssh host substring
show('ssh host substring', refusal(res('backup@app-backup: Permission denied (publickey).\r\nrsync: connection unexpectedly closed', 255), 'run', undefined, `ssh app 'rm -rf /srv/data && rsync -a backup@app-backup:/x /y'`));
show('ssh host own (control)', refusal(res('dev@app: Permission denied (publickey).', 255), 'run', undefined, `ssh dev@app 'rm -rf /srv/data'`));
// 3 docker-compose exec not a wrapper
show('docker-compose exec', refusal(res('Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', 1), 'run', undefined, `docker-compose exec app sh -c 'rm -rf /data && docker ps'`));
show('docker compose exec', refusal(res('Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', 1), 'run', undefined, `docker compose exec app sh -c 'rm -rf /data && docker ps'`));
show('kubectl -n prod exec', refusal(res('The connection to the server localhost:8080 was refused - did you specify the right host or port?', 1), 'run', undefined, `kubectl -n prod exec api-0 -- sh -c 'rm -rf /data && kubectl get pods'`));
show('kubectl --context x exec', refusal(res('The connection to the server localhost:8080 was refused - did you specify the right host or port?', 1), 'run', undefined, `kubectl --context prod exec api-0 -- sh -c 'rm -rf /data && kubectl get pods'`));
show('docker --context x exec', refusal(res('Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?', 1), 'run', undefined, `docker --context prod exec app sh -c 'rm -rf /data && docker ps'`));
show('sudo docker exec', refusal(res('sh: 1: docker: not found', 127), 'run', undefined, `sudo docker exec app sh -c 'rm -rf /data; docker ps'`));
// 4 githubRefused cut off
show('gh cut off', refusal(res('HTTP 403: Must have admin rights to Repository. (https://api.github.com/repos/acme/internal-tools)', 1), 'run', undefined, 'gh repo delete acme/internal-to… --yes', 'gh repo delete acme/internal-to… --yes'));
show('gh whole', refusal(res('HTTP 403: Must have admin rights to Repository. (https://api.github.com/repos/acme/internal-tools)', 1), 'run', undefined, 'gh repo delete acme/internal-tools --yes', 'gh repo delete acme/internal-tools --yes'));
