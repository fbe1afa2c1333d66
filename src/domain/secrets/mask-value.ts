// How a secret is shown once found: a few characters from each end, never more than a third of
// it, so a reader can tell two secrets apart (and match them to their own records) without the
// report giving away anything usable.

const MAX_SHOWN = 8;
const ELLIPSIS = '…';

/** "ghp_…a1b2": first 4 + "…" + last 4; shorter secrets show fewer (at most a third in total). */
export function maskSecret(value: string): string {
  const chars = Array.from(value); // code points, so a surrogate pair is never split
  const shown = Math.min(MAX_SHOWN, Math.floor(chars.length / 3));
  const head = Math.ceil(shown / 2);
  const tail = shown - head;
  return chars.slice(0, head).join('') + ELLIPSIS + (tail > 0 ? chars.slice(-tail).join('') : '');
}
