// A shell served to the network without a login: a web terminal that takes input (ttyd -W, gotty
// -w), a notebook server with its token turned off (jupyter --ip=0.0.0.0 --NotebookApp.token=''),
// or an editor server with auth none (code-server --auth none --bind-addr 0.0.0.0:…), listening on
// every interface — directly, through `docker run -p PORT:…` of such an image, or on the host's
// network. Whoever reaches the port runs commands as the agent's user. Bound to loopback, given a
// login (ttyd -c user:pass, a password, a token), read-only, or in a container with no published
// port, it is not reported. Read from the command alone; the finding waits for the call's result
// (a server that could not start served nothing), by the exposure rule beside the file servers.
import type { SimpleCommand } from '../shell/types.ts';
import type { NormEvent } from '../model/events.ts';
import type { EventFacts, FindingDraft } from './types.ts';
import type { Located } from './effects.ts';
import { optionValues } from './commands.ts';
import { evidence, meta, QUOTE_MAX, safe } from './util.ts';

export const shellServed = meta({
  id: 'exfiltration/shell-served',
  severity: 'critical',
  title: 'A shell served to the network without a login',
  description: 'A server that gives whoever connects a shell or code execution, listening on every network interface with no login: a writable web terminal (`ttyd -W`/`--writable` without `-c`/`--credential`, `gotty -w` without `-c`), a Jupyter server with `--ip=0.0.0.0` and its token set empty and no password, `code-server --auth none` bound beyond loopback — run directly, or as a container image with a port published on all interfaces (`docker run -p 8090:7681 tsl0922/ttyd ttyd -W bash`) or on the host\'s network. A dictated command stays a warning; a server whose result shows it did not start is an attempt (info). Loopback binds, a login, a read-only terminal, or a container with no published port are not reported.',
  remediation: 'Stop the server now; check who connected (its log, the host\'s connections), treat the machine as exposed for as long as it ran, and serve it again only behind a login and bound to 127.0.0.1.',
});

const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|localhost|::1|\[::1\]|lo)$/i;

interface ShellServer {
  tool: string;
  /** Where it listens ('' or 0.0.0.0: every interface). */
  bind: string;
}

/** Docker's `run` options that take a value (the image is the first operand after them). */
const DOCKER_VALUE_OPTS = ['-p', '--publish', '-v', '--volume', '-e', '--env', '--env-file', '--name', '-w', '--workdir', '--network', '--net', '-u', '--user', '--entrypoint', '-l', '--label', '--restart', '--mount', '-h', '--hostname', '--cpus', '-m', '--memory', '--add-host', '--device', '--log-driver', '--log-opt', '--platform', '--pull', '--cap-add', '--cap-drop', '--security-opt', '--ulimit', '--tmpfs', '--dns', '--ipc', '--pid', '--shm-size', '--gpus', '--expose', '--link', '--runtime', '--stop-signal', '--stop-timeout', '--label-file', '--health-cmd', '--group-add'];

/** The no-login shell server a command starts, or null. */
export function shellServer(cmd: SimpleCommand): ShellServer | null {
  if (cmd.name === 'docker' || cmd.name === 'podman') return containerShell(cmd.args);
  return directShell(cmd.name, cmd.args);
}

function directShell(name: string, args: string[]): ShellServer | null {
  if (name === 'ttyd') {
    if (!args.some((a) => a === '-W' || a === '--writable')) return null;
    if (args.some((a) => /^(?:-c|--credential|-H|--auth-header)(?:=|$)/.test(a))) return null;
    const iface = optionValues(args, ['-i', '--interface'])[0] ?? '';
    return iface.endsWith('.sock') ? null : { tool: 'ttyd', bind: iface };
  }
  if (name === 'gotty') {
    if (!args.some((a) => a === '-w' || a === '--permit-write')) return null;
    if (args.some((a) => /^(?:-c|--credential)(?:=|$)/.test(a))) return null;
    return { tool: 'gotty', bind: optionValues(args, ['-a', '--address'])[0] ?? '' };
  }
  if (name === 'jupyter' && /^(?:notebook|lab|server)$/.test(args[0] ?? '')) {
    const ip = optionValues(args, ['--ip'])[0] ?? args.find((a) => /^--(?:NotebookApp|ServerApp)\.ip=/.test(a))?.replace(/^[^=]*=/, '') ?? 'localhost';
    const noToken = args.some((a) => /^--(?:NotebookApp|ServerApp|IdentityProvider)\.token=(?:''|"")?$/.test(a));
    const password = args.some((a) => /^--(?:NotebookApp|ServerApp|PasswordIdentityProvider)\.(?:hashed_)?password=(?!(?:''|"")?$)/.test(a));
    return noToken && !password ? { tool: 'jupyter', bind: ip === '*' ? '' : ip } : null;
  }
  if (name === 'code-server') {
    const auth = optionValues(args, ['--auth'])[0];
    if (auth !== 'none') return null;
    // code-server binds to 127.0.0.1:8080 unless told otherwise
    const bind = (optionValues(args, ['--bind-addr'])[0] ?? '127.0.0.1:8080').replace(/:\d+$/, '');
    return { tool: 'code-server', bind };
  }
  return null;
}

/** `docker run [opts] IMAGE [command…]` of a shell server's image, published beyond loopback. */
function containerShell(args: string[]): ShellServer | null {
  const at = args[0] === 'run' ? 1 : args[0] === 'container' && args[1] === 'run' ? 2 : -1;
  if (at < 0) return null;
  const rest = args.slice(at);
  // docker's own options come before the image; everything after it is the container's command
  let i = 0;
  while (i < rest.length && rest[i].startsWith('-')) i += DOCKER_VALUE_OPTS.includes(rest[i]) ? 2 : 1;
  const image = rest[i];
  const tool = /(?:^|\/)(ttyd|gotty)(?::|@|$)/.exec(image ?? '')?.[1];
  if (!image || !tool) return null;
  const options = rest.slice(0, i);
  let command = rest.slice(i + 1);
  if (command[0] === tool) command = command.slice(1);
  const inside = directShell(tool, command);
  if (!inside) return null;
  const hostNetwork = optionValues(options, ['--network', '--net']).includes('host');
  if (hostNetwork) return inside;
  // `-p 8090:7681` publishes on every interface; `-p 127.0.0.1:8090:7681` on loopback only
  const published = optionValues(options, ['-p', '--publish']);
  const open = published.filter((p) => !/^(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]):/.test(p));
  return open.length > 0 ? { tool, bind: '' } : null;
}

/**
 * The finding for a command that starts a no-login shell server beyond loopback, or null. The
 * exposure rule (exposure.ts) runs it beside the file servers, with their dictation and result gate.
 */
export function shellServedDraft(loc: Located, facts: EventFacts, event: NormEvent): FindingDraft | null {
  const served = shellServer(loc.cmd);
  if (!served || LOOPBACK.test(served.bind)) return null;
  return {
    rule: shellServed.id,
    detail: `\`${safe(loc.cmd.text, facts, QUOTE_MAX)}\` served ${served.tool === 'jupyter' || served.tool === 'code-server' ? `${served.tool} (code execution)` : `a writable ${served.tool} terminal`} on every network interface with no login: whoever could reach the port could run commands on this machine.`,
    evidence: [evidence(event, loc.cmd.text, facts)],
    key: served.tool,
  };
}
