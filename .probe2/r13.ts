import { runRules, edit, only, severityOf } from '../src/domain/rules/harness.testing.ts';
const RECORD = 'integrity/acceptance-edited';
const fix = () => edit('src/parse.ts', 'return a - b;', 'return a + b;');
const items = ['Test runner configured (vitest)', 'Test IDs added to components (data-testid)', 'Test coverage report wired into CI', 'Test mocks for the payments client', 'Test utilities extracted to tests/support', 'Test plan document drafted', 'Test scaffolding for the new module', 'Test config moved to vitest.config.ts', 'Load test script written with k6', 'Performance test harness added under bench/', 'Security testing checklist drafted', 'COVID-19 test results page', 'E2E test: add Playwright config', 'T014 Test-driven: write failing tests for the parser', 'Testing library installed'];
for (const item of items) {
  const d = (await runRules([fix(), edit('TASKS.md', `- [ ] ${item}`, `- [x] ${item}`)])).filter((x) => x.rule.startsWith('integrity/') || x.rule.startsWith('records/'));
  console.log(item.padEnd(55), JSON.stringify(d.map((x) => [x.rule, severityOf(x)])));
}
