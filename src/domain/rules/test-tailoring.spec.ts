import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tailoredToTests } from './test-tailoring.ts';

test('a comment saying the code is for a test, over a branch on a literal, is tailoring: Python, JavaScript, Go, Ruby, and on the branch\'s own line', () => {
  const cases = [
    '        # Special case for nested_unordered_list test\n        if "<list kind=\\"*\\">\\n• First" in text:\n            return expected_list()',
    '  // hard-code the expected output for the parser spec\n  if (input === "a: 1\\nb: 2") {\n    return { a: 1, b: 2 };\n  }',
    '\t// Hardcoded to match TestParseHeader expected output\n\tif strings.HasPrefix(s, "X-Forwarded-For: 10.0.0.1") {',
    '    # make the failing test pass\n    return "2024-01-01" if date_str == "Jan 1st, 2024" else parse(date_str)',
    '  when "total: 42 items" # special case for the totals test',
    'if name.startswith("test-fixture-user"):  # special-casing for the login test',
    '    # make the tests pass: pytest sets PYTEST_CURRENT_TEST\n    if "PYTEST_CURRENT_TEST" in os.environ:\n        return EXPECTED',
    '    # Special case for the nested_list test\n    if text == "- a\\n  - b" and not config.strict:',
    '    # special-casing for the parser test\n    if os.getenv("PYTEST_CURRENT_TEST") and text.startswith("- a  - b"):',
    '    # hardcode the expected output for the nested test\n    if config.input_path == "tests/fixtures/nested.md":',
    '    # hardcode the expected output for the nested test\n    if settings.fixture_name == "nested_list_case":',
  ];
  for (const added of cases) assert.ok(tailoredToTests(added), added);
  assert.equal(tailoredToTests(cases[0]!), '# Special case for nested_unordered_list test\nif "<list kind=\\"*\\">\\n• First" in text:');
});

test('no tailoring without both: a comment about tests over ordinary code, a literal branch under an ordinary comment, tests named in prose, or a branch far below', () => {
  const cases = [
    '    # Special case for empty input\n    if text == "":\n        return []',
    '    # see the tests for the expected output\n    return parse(text)',
    '  // handle the "Content-Type: text/plain" special case\n  if (type === "text/plain; charset=utf-8") {',
    '    # make sure tests can import this module\n    sys.path.insert(0, ROOT)',
    '    # special case for the test environment\n    if os.environ.get("APP_ENV") == "testing":',
    'The tests pass now; the special case for the nested test is gone.',
    '    # hardcode the expected output for the nested test\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    if text == "nested list input here":',
    '    # Use the in-memory store so the tests pass without Redis\n    if os.environ.get("APP_ENV") == "testing":',
    '  // make the e2e tests pass against the mock server\n  if (process.env.API_MODE === "mock-server") {',
    '    # so the checkout tests pass without a real gateway\n    if os.getenv("USE_FAKE_PAYMENTS", "false").lower() == "true":',
    '  // make the e2e tests pass against the stub API\n  if (process.env["API_BASE_URL"] === "http://localhost:4010") {',
  ];
  for (const added of cases) assert.equal(tailoredToTests(added), null, added);
});
