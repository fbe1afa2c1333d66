// A package runner that fetched a package named like a tool but that is not the tool (issue 25,
// did the action do what it says?). `npx biome lint` in a project that uses `@biomejs/biome`, with
// no local copy, makes npm fetch and run the unscoped `biome` package — someone else's code, whose
// silence then reads as "lint passes"; `npx tsc` fetches the `tsc` package, not TypeScript's
// compiler. Read from the runner's own words in the call's result ("The following package was not
// found and will be installed: biome@0.3.3", "Need to install the following packages: tsc@2.0.4"),
// so a runner that found the tool in the project (nothing installed) is never reported.
import type { ToolResultEvent } from '../model/events.ts';
import type { Rule } from './types.ts';
import { describeCall, evidence, meta, QUOTE_MAX, safe } from './util.ts';

export const lookalikeRun = meta({
  id: 'supply-chain/lookalike-run',
  severity: 'warning',
  title: 'A package runner fetched a package that is not the tool it was named for',
  description: 'npx or npm exec fetched an unscoped package whose name is a well-known tool\'s command but not its package (`biome` for @biomejs/biome, `tsc` for typescript, `nest` for @nestjs/cli, `ng` for @angular/cli, `tailwind` for tailwindcss): someone else\'s code was fetched to run, and its output is not the tool\'s verdict. Read from npm\'s own "will be installed" / "Need to install" lines (other runners, and `npx --yes` on npm 7–8, print none, so they are not read); a tool found in the project installs nothing and is not reported.',
  remediation: 'Run the tool through its real package (`npx @biomejs/biome`, `npx -p typescript tsc`) or the project\'s script, check what the fetched package did, and redo the check it stood in for.',
});

/** Command names whose unscoped npm package is not the tool that command belongs to. */
const LOOKALIKES: Record<string, string> = {
  biome: '@biomejs/biome',
  tsc: 'typescript',
  nest: '@nestjs/cli',
  ng: '@angular/cli',
  tailwind: 'tailwindcss',
};

const RUNNERS = /\b(?:npx|npm\s+exec|npm\s+x|pnpm\s+dlx|pnpx|bunx|yarn\s+dlx)\b/;
// npm 7+: "npm warn exec The following package was not found and will be installed: biome@0.3.3";
// older: "Need to install the following packages:\n  tsc@2.0.4"
const WILL_INSTALL = /(?:not found and will be installed|Need to install the following packages?):?\s*((?:[@\w./-]+@[\w.+-]+[ \t,]*(?:\n[ \t]*)?)+)/gi;

export const NPX_LOOKALIKE_RULES: Rule[] = [
  {
    metas: [lookalikeRun],
    create(ctx) {
      const runs = new Map<string, string>();
      return {
        onEvent(event, facts) {
          if (event.kind === 'tool_call' && event.input.type === 'command' && RUNNERS.test(event.input.command)) {
            if (runs.size >= 200) runs.delete(runs.keys().next().value as string);
            runs.set(event.callId, describeCall(event));
            return;
          }
          if (event.kind !== 'tool_result') return;
          const call = runs.get(event.callId);
          if (call === undefined) return;
          runs.delete(event.callId);
          for (const [name, real] of fetchedLookalikes(event)) {
            ctx.report({
              rule: lookalikeRun.id,
              detail: `\`${safe(call, facts, QUOTE_MAX)}\` fetched the package \`${safe(name, facts, 80)}\` from the registry to run it — not ${real}, the tool that command belongs to: someone else's code${event.isError || (event.exitCode !== null && event.exitCode !== 0) ? ' (the run then failed)' : ' ran'}, and what it printed is not that tool's verdict.`,
              evidence: [evidence(event, event.output.slice(0, 2_000), facts)],
              key: name,
            });
          }
        },
      };
    },
  },
];

/** The look-alike packages (name@version, the real package) the runner's output says it installed. */
function fetchedLookalikes(result: ToolResultEvent): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const text = result.output.length > 20_000 ? result.output.slice(0, 20_000) : result.output;
  for (const m of text.matchAll(WILL_INSTALL)) {
    for (const spec of m[1].split(/[\s,]+/).filter(Boolean)) {
      const name = spec.slice(0, spec.lastIndexOf('@') > 0 ? spec.lastIndexOf('@') : spec.length);
      const real = LOOKALIKES[name];
      if (real !== undefined && out.length < 5) out.push([spec, real]);
    }
  }
  return out;
}
