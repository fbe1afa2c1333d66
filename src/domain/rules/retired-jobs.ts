// Start-up jobs the session took out of service (issue 25, posture: what was there before). A
// launchd job unloaded (`launchctl unload ~/Library/LaunchAgents/homebrew.mxcl.open-wispr.plist`,
// `bootout`, `remove`, `disable`) or a systemd unit disabled, stopped or masked, followed by a new
// job for the same program (`com.openwisprmod`: the rebuilt one) is a replacement: the machine
// starts that program at login as it did before, so the new job plants nothing new — a warning a
// person should still see (what now runs is the session's build), not a foothold (critical). Two
// jobs are the same program when one's name holds the other's (letters and digits of the last
// dotted part, five at least).
import type { SimpleCommand } from '../shell/types.ts';
import { parseArgs } from './commands.ts';
import { basename } from '../paths.ts';

const JOBS_MAX = 50;
const LAUNCHCTL_RETIRES = /^(?:unload|bootout|remove|disable)$/;
const SYSTEMCTL_RETIRES = /^(?:disable|stop|mask)$/;

/** `homebrew.mxcl.open-wispr.plist` → `openwispr`; `gui/501/com.openwisprmod` → `openwisprmod`. */
export function jobName(pathOrLabel: string): string {
  const last = basename(pathOrLabel.replace(/\\/g, '/')).replace(/\.(?:plist|service|timer|socket)$/i, '');
  const part = last.split('.').pop() ?? last;
  return part.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export class RetiredJobs {
  private readonly names = new Set<string>();
  /** The job files (or labels) taken out of service, by their base name: whether the session wrote them since. */
  private readonly files = new Map<string, { rewritten: boolean }>();

  onCommand(cmd: SimpleCommand): void {
    const { operands } = parseArgs(cmd.args, ['-u', '-S', '-w']);
    const retires = (cmd.name === 'launchctl' && LAUNCHCTL_RETIRES.test(operands[0] ?? '')) || (cmd.name === 'systemctl' && SYSTEMCTL_RETIRES.test(operands[0] ?? ''));
    if (!retires) return;
    for (const target of operands.slice(1)) {
      const name = jobName(target);
      if (name.length >= 5 && this.names.size < JOBS_MAX) this.names.add(name);
      if (this.files.size < JOBS_MAX) this.files.set(fileKey(target), { rewritten: false });
    }
  }

  /** A file the session wrote: a retired job's own file written since is no longer the user's job. */
  onWrite(abs: string): void {
    const retired = this.files.get(fileKey(abs));
    if (retired) retired.rewritten = true;
  }

  /**
   * Whether a job loaded now is the very one the session took out of service (the same file or
   * label, not written since): the user's own job put back, after fixing what it runs.
   */
  reloaded(pathOrLabel: string): boolean {
    const retired = this.files.get(fileKey(pathOrLabel));
    return retired !== undefined && !retired.rewritten;
  }

  /** The retired job a new job (its file or label) takes the place of, or null. */
  replaced(pathOrLabel: string): string | null {
    const name = jobName(pathOrLabel);
    if (name.length < 5) return null;
    for (const old of this.names) if (name.includes(old) || old.includes(name)) return old;
    return null;
  }
}

/** A job's file or label as one key: its base name, lower-cased (`~/Library/LaunchAgents/com.x.plist` → `com.x.plist`). */
function fileKey(pathOrLabel: string): string {
  return basename(pathOrLabel.replace(/\\/g, '/')).toLowerCase();
}
