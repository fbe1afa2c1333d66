import { analyzeText } from '../src/domain/analyze.ts';
import { session, AGENTS } from '../src/domain/synthetic.testing.ts';
const usages = {
  cargo: ['cargo test hash cache', "error: unexpected argument 'cache' found\n\nUsage: cargo test [OPTIONS] [TESTNAME] [-- [ARGS]...]\n\nFor more information, try '--help'."],
  pytest: ['pytest -q --fast', 'ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\npytest: error: unrecognized arguments: --fast\n  inifile: None\n  rootdir: /home/dev/project'],
  npm: ['npm run tset', 'npm error Missing script: "tset"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run'],
} as const;
for (const [k, [c, out]] of Object.entries(usages)) for (const a of AGENTS) {
  const text = session(a, [{ prompt: 'Fix the adder' }, { edit: 'src/parse.ts', old: 'return a - b;', new: 'return a + b;' }, { bash: c, output: out, exit: k === 'pytest' ? 4 : 1 }, { say: 'All tests pass.' }]);
  const r: any = await analyzeText(text);
  const f = r.findings.filter((x: any) => /claim-contradicted/.test(x.rule ?? x.ruleId ?? x.id));
  console.log(k.padEnd(7), a.padEnd(12), f.map((x: any) => x.severity));
}
