// Waiting on a condition instead of sleeping a fixed time: polls until `check` returns true and
// fails the test with `what` when it has not after `timeoutMs` (never carries on silently).
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
