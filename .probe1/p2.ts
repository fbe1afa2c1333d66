import { analyzeText } from '../src/domain/analyze.ts';
import { session, type Flavour, type Step } from '../src/domain/synthetic.testing.ts';
async function show(label: string, flavour: Flavour, steps: Step[], rulePrefix?: string) {
  const r = await analyzeText(session(flavour, steps));
  const fs = r.findings.filter((f) => !rulePrefix || f.rule.startsWith(rulePrefix));
  console.log(`--- ${label} [${flavour}]`);
  for (const f of fs) console.log(`   ${f.severity} ${f.rule} :: ${f.title}`);
}
const P = { prompt: 'tidy up the project' };
const ag = (process.argv[2] ?? 'claude-code') as Flavour;
await show('secret delete && secret set (403 on set)', ag, [P, { bash: 'gh secret delete DEPLOY_KEY -R acme/web && gh secret set DEPLOY_KEY -R acme/web < key.txt', output: 'failed to fetch public key: HTTP 403: Resource not accessible by integration (https://api.github.com/repos/acme/web/actions/secrets/public-key)', exit: 1 }], 'destructive');
await show('repo delete ; release list on other repo w/ prefix', ag, [P, { bash: 'gh repo delete acme/web --yes; gh release create v2 -R acme/web-legacy', output: '✓ Deleted repository acme/web\nHTTP 404: Not Found (https://api.github.com/repos/acme/web-legacy/releases)', exit: 1 }], 'destructive');
await show('chain stop misattributed: mkdir -p ok && rm -rf && ./install.sh (mkdir inside fails)', ag, [P, { bash: 'mkdir -p build && rm -rf ~/.cache/old-build && ./install.sh', output: "installing to /usr/local/lib/acme\nmkdir: cannot create directory '/usr/local/lib/acme': Permission denied", exit: 1 }], 'destructive');
await show('baseline: rm -rf ~/.cache/old-build && ./install.sh', ag, [P, { bash: 'rm -rf ~/.cache/old-build && ./install.sh', output: "installing to /usr/local/lib/acme\nmkdir: cannot create directory '/usr/local/lib/acme': Permission denied", exit: 1 }], 'destructive');
