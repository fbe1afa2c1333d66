import { calls, run } from '../src/domain/parsers/terminal/fixtures.testing.ts';
import { analyzeText } from '../src/domain/analyze.ts';
const cmds = (text: string) => calls(run(text, 'claude-code-tui').events).map((c: any) => (c.input.type === 'command' ? c.input.command : c.input.path ?? c.input.type));
const cases = [
  ['> clean up', '● Read(README.md)      ● Bash(echo "step   ● done"; rm -rf ~/data)', '  ⎿  x'],
  ['> clean up', '● Read(README.md)', '● Bash(echo "step   ● done"; rm -rf ~/data)', '  ⎿  x'],
];
for (const c of cases) {
  console.log(JSON.stringify(cmds(c.join('\n'))));
  const r: any = await analyzeText(c.join('\n') + '\n');
  console.log('   findings:', r.findings.filter((f: any) => f.severity !== 'info').map((f: any) => `${f.severity} ${f.rule}`));
}
