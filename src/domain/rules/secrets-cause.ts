// How findings about one credential are keyed and grouped, shared by the secret rules and the
// secret data flow (secret-flow.ts).
import type { SecretHit } from '../secrets/types.ts';

/**
 * One finding per credential, whichever detector recognised it (two detectors may label the same
 * value differently). The masked form plus the length tells values apart without holding them.
 */
export function secretKey(hit: SecretHit): string {
  return `${hit.masked}:${hit.value.length}`;
}

/**
 * One credential is one cause, wherever it showed up (typed into the prompt, then written into a
 * file by the agent, then pushed: one finding with every place in evidence, not three).
 */
export function credentialCause(hit: SecretHit): { id: string; summary: string } {
  return { id: `credential:${secretKey(hit)}`, summary: `${hit.label} ${hit.masked} appeared in several places (each is in the evidence).` };
}
