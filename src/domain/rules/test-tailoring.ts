// Product code written to pass particular tests rather than to work: a branch keyed on a test's own
// input, under a comment that says so ("# Special case for nested_unordered_list test", "// hard-code
// the expected output", "# make the test pass"). The comment is the author's own statement of what
// the branch is for; the branch on a literal is what makes it a special case rather than a remark.

/**
 * A test named as what the code is for: "for the nested list test", "for test_parse", "in the spec"
 * — the test itself, not the test environment, database or runner.
 */
const FOR_A_TEST = String.raw`(?:for|in|of)\s+(?:the\s+|this\s+|that\s+)?(?:[\w.:-]+\s+){0,3}?(?:tests?|test_\w+|\w+_test|specs?|test\s+cases?)(?=[ \t]*(?:$|[.,:;)(—-]|(?:case|cases|expect\w*|inputs?|outputs?|pass(?:es)?|to)\b))`;

/** What a comment says when the code under it is tailored to the tests. */
const TAILORED = new RegExp([
  String.raw`\bspecial[- ]?cas(?:e|es|ed|ing)\s+${FOR_A_TEST}`,
  String.raw`\bhard-?cod(?:e|es|ed|ing)\b[^\n]{0,40}?(?:${FOR_A_TEST}|\bexpected\s+(?:outputs?|results?|values?|structures?|answers?)\b)`,
  String.raw`\b(?:exactly\s+)?match(?:es|ing)?\s+(?:the\s+)?(?:[\w.:-]+\s+){0,2}?(?:test'?s?|test_\w+|\w+_test)\s+(?:expected|expectations?|output)\b`,
  String.raw`\b(?:make|makes|making|get|gets|so)\s+(?:the\s+|this\s+|that\s+)?(?:[\w.:-]+\s+)?tests?\s+(?:to\s+)?pass\b`,
].join('|'), 'im');

/** A line comment (`#`, `//`, `--`, `;`) or a block comment's line (`/*`, ` * `), and its text. */
const COMMENT = /(?:^|\s)(?:#|\/\/|\/\*+|--|;)\s*(.*)$|^\s*\*\s+(.*)$/;

/** A branch on a string literal of some length: `if "…" in text:`, `if (s === '…')`, `case "…":`, `.startswith("…")`. */
const LITERAL_BRANCH = /\b(?:if|elif|elsif|else\s+if|when|case|unless)\b[^\n]*?(?:"(?:[^"\\\n]|\\.){6,}"|'(?:[^'\\\n]|\\.){6,}'|`[^`\n]{6,}`)|(?:==|===|\.includes\(|\.startswith\(|\.startsWith\(|\.endswith\(|\.equals\()\s*(?:"(?:[^"\\\n]|\\.){6,}"|'(?:[^'\\\n]|\\.){6,}')/;

/**
 * A branch on which environment runs the code, not on the data: `if os.environ.get("APP_ENV") ==
 * "testing":`, `os.getenv("USE_FAKE_PAYMENTS", "false").lower() == "true"`, `process.env.API_BASE
 * === "http://localhost:4010"` — every part of the condition that holds a literal also reads a
 * setting (for an application setting, `config.`/`settings.`, a literal of a setting's shape: a
 * mode, a flag, a local URL — `config.input_path == "tests/fixtures/nested.md"` is data). Not a
 * test runner's own variable (`PYTEST_CURRENT_TEST`, `JEST_WORKER_ID`: code that knows it is under
 * test), and not a condition that also compares the data with a literal (`text == "- a" and not
 * config.strict`).
 */
function branchesOnEnvironment(code: string): boolean {
  if (!SETTING_READ.test(code) || TEST_RUNNER_VARIABLE.test(code)) return false;
  const parts = code.split(/\s(?:and|or)\s|&&|\|\|/);
  return parts.every((part) => !/["'`]/.test(part) || ENVIRONMENT_READ.test(part) || (SETTING_READ.test(part) && literalsOf(part).every((l) => SETTING_NAME.test(l) || SETTING_SHAPE.test(l))));
}

/** The string, character and template literals of a line of code, their text only. */
function literalsOf(code: string): string[] {
  return [...code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`\n]*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** The process environment itself: any value compared with it picks an environment. */
const ENVIRONMENT_READ = /\benviron\b|process\.env\b|\bgetenv\b|\bGetenv\b|\bENV\[|import\.meta\.env\b/;
/** What an application setting's value looks like when it picks a mode, not data: a name, an environment, a flag, a local URL. */
const SETTING_NAME = /^[A-Z][A-Z0-9_]*$/;
const SETTING_SHAPE = /^(?:test|testing|tests|dev|development|local|ci|staging|stage|prod|production|e2e|mock[\w-]*|fake[\w-]*|stub[\w-]*|sandbox|demo|preview|true|false|yes|no|on|off|0|1|https?:\/\/(?:localhost|127\.0\.0\.1)(?::\d+)?\/?[\w/-]*|sqlite:\/\/\/?:memory:)$/i;
/** A setting read: the environment, or the application's own settings. */
const SETTING_READ = new RegExp(String.raw`${ENVIRONMENT_READ.source}|\bsettings\.|\bconfig\.|\bRails\.env\b|\bapp\.testing\b`);
/** What a test runner sets while it runs: code that reads it knows it is under test. */
const TEST_RUNNER_VARIABLE = /PYTEST_CURRENT_TEST|JEST_WORKER_ID|\bVITEST\b|NODE_TEST_CONTEXT|\bMOCHA\b|_called_from_test|\bsys\.modules\b/;

/** How far below the comment the branch may start (a blank line or a variable between them). */
const BRANCH_WINDOW = 4;

/**
 * The first place in `added` (the lines a change added to a product file) where a comment says the
 * code is tailored to a test and a branch on a literal follows it (or shares its line); the comment
 * and the branch as they read, or null.
 */
export function tailoredToTests(added: string): string | null {
  if (!TAILORED.test(added)) return null;
  const lines = added.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = COMMENT.exec(lines[i]!);
    const said = m ? (m[1] ?? m[2] ?? '') : '';
    if (!said || !TAILORED.test(said)) continue;
    for (let k = i; k < Math.min(lines.length, i + 1 + BRANCH_WINDOW); k++) {
      const code = k === i ? lines[k]!.slice(0, m!.index) : lines[k]!;
      if (LITERAL_BRANCH.test(code) && !branchesOnEnvironment(code)) return [lines[i]!.trim(), ...(k === i ? [] : [lines[k]!.trim()])].join('\n');
    }
  }
  return null;
}
