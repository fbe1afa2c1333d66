// action.yml's `runs.main`: bundled with everything it imports into dist-action/index.mjs by
// `npm run build:action` (scripts/build.mjs), so the Action runs with no install step.
import { actionMain } from './main.ts';

process.exitCode = await actionMain(process.env, (line) => process.stdout.write(line + '\n'));
