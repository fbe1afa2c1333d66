// System event subtypes that parsers emit about the run itself, not about what the agent did.
// Only the format can tell these; the analyser and the coverage rules act on them.

/** A second (third …) run starts here in the same file: a new stream-json `system/init`, a new
 *  Codex `thread.started` / `session_meta` with another id, a new Gemini stream `init`. */
export const RUN_START = 'run_start';

/** The run lacks its closing record (stream-json `result`, exec `turn.completed`): it was cut
 *  off. Emitted once, where the parser notices it (the end of the log or the next run's start). */
export const RUN_INCOMPLETE = 'incomplete';

/** What follows was done with tool calls the file does not hold (a headless Gemini CLI answer,
 *  printed without its calls): rules that judge claims against the calls they saw cannot. */
export const ACTIONS_UNRECORDED = 'actions_unrecorded';

/** A message the user sent while the agent worked reached the model but not the file (Claude Code
 *  queued it without its text and took it in mid-turn): what the user asked from there on is not
 *  all in the log, so what is "unrequested" cannot be said for sure. */
export const PROMPT_UNRECORDED = 'prompt_unrecorded';
