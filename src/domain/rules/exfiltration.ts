// exfiltration: code fetched from the network and executed, data sent off the machine — file
// uploads, known drop sites, and secrets that were read and then travelled out in a network call.
// Localhost and private-network targets are development, not exfiltration.
import type { NormEvent } from '../model/events.ts';
import type { ParsedShell, SimpleCommand } from '../shell/types.ts';
import type { EventFacts, Rule, RuleContext, SessionFacts } from './types.ts';
import { CommandTable, type Positional, type Row } from './command-table.ts';
import { effectsOf, locate, type Effects, type Located } from './effects.ts';
import {
  FETCHERS, INTERPRETERS, RAW_SOCKETS, hostMatches, hostOfUrl, isLocalHost, networkTargets, optionValues,
  parseArgs, readsProgramFromStdin,
} from './commands.ts';
import { credentialCause, envDumpOf, FILTERED_DUMP, sensitiveLabel, sensitiveReads, urlIdentifiers } from './secrets.ts';
import { addCapped, basename, describeCall, escapeRegExp, evidence, meta, QUOTE_MAX, safe, setCapped, type EvidenceItem } from './util.ts';
import { Outcomes } from './outcome.ts';
import { asksTransfer, asRequested, dictates, namesHost, requestsOf, requestedInstaller, whoAsked, type Asker, type Request, userSpokeAgainstInstaller } from './requests.ts';
import { answeringHost, belongsTo, homeHostOf, isIssuerHost, issuerDomainsOfName, mintable, underDomains } from '../secrets/issuers.ts';
import { parseShell } from '../shell/parse.ts';
import type { SecretHit } from '../secrets/types.ts';

export const remoteCodeExecution = meta({
  id: 'exfiltration/remote-code-execution',
  severity: 'critical',
  title: 'Code downloaded and executed',
  description: 'A script fetched from a remote host was run without being looked at: curl/wget piped into sh/bash/python…, bash -c "$(curl …)", bash <(curl …), or a file downloaded with curl -o/wget and then executed. Whoever controls that URL ran code on this machine. Downloads from localhost are ignored.',
  remediation: 'Review what the script did; pin installers by checksum, or download, read and then run them.',
});
export const upload = meta({
  id: 'exfiltration/upload',
  severity: 'warning',
  title: 'Data uploaded to a remote host',
  description: 'Files sent off the machine: curl -d @file / --data-binary @ / -F f=@file / -T, wget --post-file, scp or rsync to a remote host, nc/ssh fed from a file or pipe, aws s3 / gsutil / rclone uploads. Critical when the upload carries a credential file or follows a secret read in the session. Uploads to localhost or a private network are ignored. An upload the user asked for (the host or the files named) is info when it carried no credential and followed no secret read, a warning otherwise. Files copied to a server the session already has a shell on (`ssh user@host …` earlier) are a deploy to a machine it administers: info, unless they carry a credential file or follow a secret read.',
  remediation: 'Check what was sent and to whom; rotate any credential that was included.',
});
export const dropSite = meta({
  id: 'exfiltration/drop-site',
  severity: 'critical',
  title: 'Known data drop site contacted',
  description: 'Contact with a request collector or tunnel (webhook.site, requestbin, pipedream, interactsh/oast, ngrok, trycloudflare …) or an upload to an anonymous paste/file host (pastebin, transfer.sh, 0x0.st, file.io, termbin …). These exist to receive data from elsewhere. Merely downloading from a paste host is a warning. Through a tunnel (ngrok, trycloudflare, serveo …), most often the project\'s own endpoint under development, a curl whose only payload is text written out in the command (no file, no variable anywhere in it, no command\'s output, nothing piped in) is info.',
  remediation: 'Treat everything the agent could read as exposed: find out what was sent, rotate credentials, and block these hosts for agents.',
});
export const secretThenNetwork = meta({
  id: 'exfiltration/secret-then-network',
  severity: 'critical',
  title: 'Secret read, then sent over the network',
  description: 'After a credential file was read, the environment dumped or a secret printed, a network command or fetch carried that secret or file (the value itself, the file path, or a command substitution reading it). When the only link is a shell variable in the request ($TOKEN) it is a warning. Plain downloads, git push and uploads (reported separately) do not count.',
  remediation: 'Rotate the exposed credential and check the receiving host; keep credential files out of the agent\'s reach.',
});

// ---- drop sites ---------------------------------------------------------------------------------

/** Endpoints that only exist to receive requests: any contact sends data. */
const COLLECTORS = [
  'webhook.site', 'requestbin.com', 'requestbin.net', 'requestcatcher.com', 'pipedream.net', 'hookbin.com',
  'beeceptor.com', 'interactsh.com', 'oast.fun', 'oast.pro', 'oast.live', 'oast.site', 'oast.online', 'oast.me',
  'burpcollaborator.net', 'oastify.com', 'canarytokens.com', 'ngrok.io', 'ngrok-free.app', 'ngrok.app', 'ngrok.dev',
  'trycloudflare.com', 'serveo.net', 'lhr.life', 'pagekite.me', 'dnslog.cn', 'ceye.io', 'requestrepo.com', 'postb.in',
  'ptsv2.com', 'ptsv3.com', 'webhook.cool', 'smee.io',
];
/** Anonymous paste and file hosts: uploads are how data leaves, downloads are merely odd. */
const PASTE_HOSTS = [
  'pastebin.com', 'paste.ee', 'hastebin.com', 'dpaste.com', 'dpaste.org', 'ghostbin.com', 'rentry.co', 'termbin.com',
  'ix.io', 'sprunge.us', '0x0.st', 'transfer.sh', 'file.io', 'tmpfiles.org', 'temp.sh', 'bashupload.com', 'oshi.at',
  'catbox.moe', 'gofile.io', 'anonfiles.com', 'filebin.net', 'keep.sh', 'paste.rs', 'ufile.io', 'pastebin.pl',
];

// ---- shared predicates ---------------------------------------------------------------------------

const DATA_OPTS = ['-d', '--data', '--data-binary', '--data-raw', '--data-urlencode', '--data-ascii', '--json', '-F', '--form', '--form-string', '-T', '--upload-file'];

/** Does this network command carry data out (not just fetch something)? */
/** Tunnels that forward to a machine's own port (ngrok, Cloudflare's quick tunnels, serveo, localhost.run, pagekite). */
const TUNNELS = ['ngrok.io', 'ngrok-free.app', 'ngrok.app', 'ngrok.dev', 'trycloudflare.com', 'serveo.net', 'lhr.life', 'pagekite.me'];

/**
 * A curl whose body is only text written out in the command (`-d '{"type":"url_verification",…}'`):
 * no `@file` or `<file`, no `$VAR` or `$(…)` anywhere in it (headers and URL included), nothing
 * piped or redirected into it, no upload (-T, -F with a file).
 */
function literalPayloadOnly(loc: Located): boolean {
  const { cmd } = loc;
  if (cmd.name !== 'curl' || cmd.pipeIndex > 0 || cmd.redirects.some((r) => r.op.startsWith('<'))) return false;
  if (cmd.args.some((a) => a === '-T' || a === '--upload-file' || a.startsWith('--upload-file='))) return false;
  // (a header or the URL built from a variable carries its value too: `-H "Authorization: Bearer $TOKEN"`)
  if (cmd.args.some((a) => /\$|`/.test(a))) return false;
  return optionValues(cmd.args, DATA_OPTS).every((b) => !/^@|=@|=<|^</.test(b));
}

export function sendsData(loc: Located): boolean {
  const { cmd } = loc;
  const { name, args } = cmd;
  if (name === 'curl') {
    const method = optionValues(args, ['-X', '--request'])[0]?.toUpperCase();
    return optionValues(args, DATA_OPTS).length > 0 || method === 'POST' || method === 'PUT' || method === 'PATCH';
  }
  if (name === 'wget') return args.some((a) => /^--(post|body)-(data|file)/.test(a) || /^--method=(POST|PUT|PATCH)$/i.test(a));
  if (name === 'http' || name === 'https' || name === 'xh' || name === 'httpie') {
    return args.some((a) => /^(POST|PUT|PATCH)$/.test(a) || /^[\w-]+(:?=|@)/.test(a));
  }
  if (RAW_SOCKETS.has(name) || name === 'ssh') return fedByStdin(cmd);
  if (name === 'scp' || name === 'rsync') return uploadFiles(loc, [loc]).length > 0;
  return false;
}

function fedByStdin(cmd: SimpleCommand): boolean {
  return cmd.pipeIndex > 0 || cmd.redirects.some((r) => r.op === '<');
}

interface UploadView extends Positional {
  loc: Located;
  /** Every command of the tool call (what a pipeline feeds in). */
  all: Located[];
  args: string[];
}

interface Upload extends Row<UploadView> {
  /** The local files the command sends. */
  files: (v: UploadView) => string[];
}

/**
 * Upload commands: tool → subcommand → the local files sent. Paths are matched against the words
 * as written (`aws s3 cp`, `rclone copy`).
 */
export const UPLOADS = new CommandTable<UploadView, Upload>([
  { tools: ['curl'], path: [], files: curlUploads },
  { tools: ['wget'], path: [], files: (v) => optionValues(v.args, ['--post-file', '--body-file']) },
  { tools: ['scp', 'rsync'], path: [], files: remoteCopySources },
  { tools: [...RAW_SOCKETS, 'ssh'], path: [], files: (v) => (!fedByStdin(v.loc.cmd) || parseArgs(v.args, ['-p']).short.has('l') ? [] : orPiped(stdinFiles(v))) },
  { tools: ['aws'], path: ['s3', /^(cp|sync|mv)$/], files: s3Upload },
  { tools: ['gsutil'], path: [], when: (v) => /^(cp|rsync|mv)$/.test(v.args.find((a) => !a.startsWith('-')) ?? ''), files: storageUpload },
  { tools: ['rclone'], path: [/^(copy|sync|move|copyto)$/], files: storageUpload },
]);

/** Local files an upload command sends (empty when it is not an upload). */
export function uploadFiles(loc: Located, all: Located[]): string[] {
  const { args } = loc.cmd;
  const found = UPLOADS.match(loc.cmd.name, () => ({ loc, all, args, operands: args }));
  return found ? found.row.files(found.view) : [];
}

/** Files redirected into the command or fed to it by a pipeline. */
function stdinFiles(v: UploadView): string[] {
  return [...v.loc.cmd.redirects.filter((r) => r.op === '<').map((r) => r.target), ...feederFiles(v.loc, v.all)];
}

function orPiped(files: string[]): string[] {
  return files.length > 0 ? files : ['(piped data)'];
}

function curlUploads(v: UploadView): string[] {
  const { args } = v;
  const files: string[] = [];
  for (const d of optionValues(args, ['-d', '--data', '--data-binary', '--data-urlencode', '--data-ascii', '--json'])) {
    const m = /^(?:[\w.-]*)@(.+)$/.exec(d);
    if (m) files.push(...(m[1] === '-' ? stdinFiles(v).concat(v.loc.cmd.pipeIndex > 0 ? ['(stdin)'] : []) : [m[1]]));
  }
  for (const f of optionValues(args, ['-F', '--form'])) {
    const m = /^[^=]+=[@<]([^;]+)/.exec(f);
    if (m) files.push(m[1]);
  }
  for (const t of optionValues(args, ['-T', '--upload-file'])) files.push(...(t === '-' || t === '.' ? [...stdinFiles(v), '(stdin)'] : [t]));
  return files;
}

/** scp/rsync: the local sources when the destination is remote. */
function remoteCopySources(v: UploadView): string[] {
  const { operands } = parseArgs(v.args, ['-i', '-P', '-o', '-e', '-F', '--exclude', '--include', '-S', '-J', '-l', '-c']);
  const remote = (o: string) => /^(?:[^@/\s]+@)?[a-z0-9][a-z0-9.-]+:(?!\/\/)/i.test(o);
  const dest = operands[operands.length - 1];
  return operands.length >= 2 && dest && remote(dest) ? operands.slice(0, -1).filter((o) => !remote(o)) : [];
}

function s3Upload(v: UploadView): string[] {
  const ops = parseArgs(v.args.slice(2), ['--profile', '--region', '--exclude', '--include', '--acl']).operands;
  return ops.length >= 2 && /^s3:\/\//.test(ops[ops.length - 1]) && !/^s3:\/\//.test(ops[0]) ? [ops[0]] : [];
}

/** gsutil/rclone: the local source when the destination is a remote (`gs://…`, `remote:path`). */
function storageUpload(v: UploadView): string[] {
  const ops = parseArgs(v.args, ['-h', '-o']).operands.slice(1);
  const dest = ops[ops.length - 1] ?? '';
  return ops.length >= 2 && /^[\w-]+:/.test(dest) && !/^[\w-]+:/.test(ops[0]) ? [ops[0]] : [];
}

/** Files that a pipeline feeds into this command (`cat f | nc …`, `tar c dir | ssh …`). */
function feederFiles(loc: Located, all: Located[]): string[] {
  const i = all.indexOf(loc);
  const out: string[] = [];
  for (let k = i - 1; k >= 0 && k >= i - loc.cmd.pipeIndex; k--) {
    const f = all[k].cmd;
    if (f.name === 'cat' || f.name === 'base64' || f.name === 'gzip' || f.name === 'xxd') out.push(...parseArgs(f.args).operands);
    if (f.name === 'tar' || f.name === 'zip') out.push(...parseArgs(f.args.slice(1), ['-f', '-C']).operands);
  }
  return out;
}

/** Remote hosts of a command (local and private-network ones dropped). */
function remoteHosts(cmd: SimpleCommand): string[] {
  const { name, args } = cmd;
  if (name === 'aws' && args[0] === 's3') return ['s3.amazonaws.com'];
  if (name === 'gsutil') return ['storage.googleapis.com'];
  if (name === 'rclone') return ['rclone remote'];
  return networkTargets(cmd).map((t) => t.host).filter((h) => !isLocalHost(h));
}

// ---- remote code execution ---------------------------------------------------------------------

const SUBST_FETCH = /(\$\(|<\(|`)\s*(curl|wget)\b[^)`]*/;

function rceInShell(shell: ParsedShell): { cmd: SimpleCommand; why: string } | null {
  for (const pl of shell.pipelines) {
    const cmds = pl.map((i) => shell.commands[i]);
    const fetchAt = cmds.findIndex((c) => FETCHERS.has(c.name) && networkTargets(c).some((t) => !isLocalHost(t.host)));
    if (fetchAt < 0) continue;
    const runner = cmds.slice(fetchAt + 1).find(readsProgramFromStdin);
    if (!runner) continue;
    // Run as root (`| sudo bash`): said here, since permissions/sudo leaves this one event to this finding.
    const root = runner.wrappers.find((w) => w === 'sudo' || w === 'doas');
    return { cmd: cmds[fetchAt], why: `piped from ${cmds[fetchAt].name} into ${root ? `${root} ${runner.name}, as root` : runner.name}` };
  }
  for (const c of shell.commands) {
    const runsText = INTERPRETERS.has(c.name) || c.name === 'source' || c.name === '.' || c.name === 'eval' || /^python[\d.]+$/.test(c.name);
    const m = runsText ? SUBST_FETCH.exec(c.args.join(' ')) : null;
    if (!m) continue;
    const hosts = [...m[0].matchAll(/https?:\/\/[^\s'"`)]+/g)].map((u) => hostOfUrl(u[0]) ?? '');
    if (hosts.length > 0 && hosts.every((h) => h === '' || isLocalHost(h))) continue;
    return { cmd: c, why: `${c.name} ran the output of ${m[2]}` };
  }
  return null;
}

// Download-and-execute in the other shells the agents use on Windows (issue 25, item 7):
// PowerShell `iex (irm URL)`, `irm URL | iex`, `Invoke-Expression (New-Object Net.WebClient)
// .DownloadString(URL)`, and any shell line handed to `cmd /c`, `powershell -c`, `pwsh -Command`.
const PS_EXEC = /\b(?:iex|invoke-expression)\b/i;
const PS_FETCH = /\b(?:irm|iwr|invoke-restmethod|invoke-webrequest|downloadstring|downloadfile|curl|wget|start-bitstransfer)\b[^|;]*?(https?:\/\/[^\s'"`)]+)/i;
const HANDED_OVER = /^(?:cmd(?:\.exe)?\s+\/[ck]|(?:powershell|pwsh)(?:\.exe)?\s+(?:-NoProfile\s+|-ExecutionPolicy\s+\S+\s+)*-(?:c|command))\s+(.+)$/is;

/** PowerShell running downloaded text, or a shell line handed to cmd/PowerShell that pipes a download into a shell. */
function rceInOtherShells(shell: ParsedShell): { cmd: SimpleCommand; why: string } | null {
  for (const c of shell.commands) {
    const text = [c.name, ...c.args].join(' ');
    if (text.length > 20_000) continue;
    const fetched = PS_FETCH.exec(text);
    const host = fetched ? hostOfUrl(fetched[1]) : null;
    if (PS_EXEC.test(text) && host && !isLocalHost(host)) return { cmd: c, why: 'PowerShell ran downloaded code (Invoke-Expression of a download)' };
    const inner = HANDED_OVER.exec(text)?.[1]?.replace(/^"(.*)"$/s, '$1');
    if (inner && inner !== text) {
      const nested = rceInShell(parseShell(inner));
      if (nested) return { cmd: c, why: `${c.name} /c ${nested.why}` };
    }
  }
  return null;
}

/** Files a command downloads (curl -o/-O, wget), by resolved path. */
function downloads(loc: Located, session: SessionFacts): { abs: string; url: string }[] {
  const { cmd } = loc;
  if (cmd.name !== 'curl' && cmd.name !== 'wget') return [];
  const remote = networkTargets(cmd).filter((t) => t.url && !isLocalHost(t.host));
  if (remote.length === 0) return [];
  const url = remote[0].url!;
  const named = optionValues(cmd.args, cmd.name === 'curl' ? ['-o', '--output'] : ['-O', '--output-document']).filter((f) => f !== '-');
  const implicit = cmd.name === 'wget' || parseArgs(cmd.args, ['-o', '--output']).short.has('O') || cmd.args.includes('--remote-name');
  const files = named.length > 0 ? named : implicit ? [basename(url.replace(/[?#].*$/, ''))] : [];
  return files.filter(Boolean).map((f) => ({ abs: locate(f, loc.dir, session).abs, url }));
}

/** Runs a previously downloaded file (`bash install.sh`, `./install.sh`, `python get-pip.py`)? */
function runsDownloaded(loc: Located, downloaded: Map<string, string>, session: SessionFacts): string | null {
  const { cmd } = loc;
  if (INTERPRETERS.has(cmd.name) || /^python[\d.]+$/.test(cmd.name)) {
    const script = parseArgs(cmd.args, ['-o', '-O']).operands[0];
    const abs = script ? locate(script, loc.dir, session).abs : null;
    if (abs && downloaded.has(abs)) return downloaded.get(abs)!;
  }
  for (const [abs, url] of downloaded) if (basename(abs) === cmd.name && /\.(sh|bash|py|pl|rb)$|^[^.]+$/.test(cmd.name)) return url;
  return null;
}

// ---- vendors' own installers ----------------------------------------------------------------------

/**
 * Installer scripts a vendor publishes on its own site for its own tool, by host (and path on a
 * shared code host). What they run is the vendor's, like the package they install.
 */
const OFFICIAL_INSTALLERS: ReadonlyArray<{ url: RegExp; vendor: string }> = [
  { url: /^https?:\/\/astral\.sh\//, vendor: 'Astral (uv, ruff)' },
  { url: /^https?:\/\/bootstrap\.pypa\.io\//, vendor: "the Python Packaging Authority (pip)" },
  { url: /^https?:\/\/install\.python-poetry\.org(?=[/:?#]|$)/, vendor: 'Poetry' },
  { url: /^https?:\/\/pyenv\.run(?=[/:?#]|$)/, vendor: 'pyenv' },
  { url: /^https?:\/\/sh\.rustup\.rs(?=[/:?#]|$)|^https?:\/\/static\.rust-lang\.org\//, vendor: 'the Rust project (rustup)' },
  { url: /^https?:\/\/get\.docker\.com(?=[/:?#]|$)|^https?:\/\/test\.docker\.com(?=[/:?#]|$)/, vendor: 'Docker' },
  { url: /^https?:\/\/(?:deb|rpm)\.nodesource\.com\//, vendor: 'NodeSource (Node.js)' },
  { url: /^https?:\/\/raw\.githubusercontent\.com\/nvm-sh\/nvm\//, vendor: 'nvm' },
  { url: /^https?:\/\/raw\.githubusercontent\.com\/Homebrew\/install\//, vendor: 'Homebrew' },
  { url: /^https?:\/\/raw\.githubusercontent\.com\/helm\/helm\//, vendor: 'Helm' },
  { url: /^https?:\/\/(?:get\.)?bun\.sh\//, vendor: 'Bun' },
  { url: /^https?:\/\/deno\.(?:land|com)\/install/, vendor: 'Deno' },
  { url: /^https?:\/\/get\.pnpm\.io\//, vendor: 'pnpm' },
  { url: /^https?:\/\/get\.volta\.sh(?=[/:?#]|$)/, vendor: 'Volta' },
  { url: /^https?:\/\/fnm\.vercel\.app\/install/, vendor: 'fnm' },
  { url: /^https?:\/\/mise\.run(?=[/:?#]|$)/, vendor: 'mise' },
  { url: /^https?:\/\/get\.sdkman\.io(?=[/:?#]|$)/, vendor: 'SDKMAN' },
  { url: /^https?:\/\/dot\.net\/v1\/dotnet-install\./, vendor: 'Microsoft (.NET)' },
  { url: /^https?:\/\/(?:nixos\.org\/nix\/install|install\.determinate\.systems\/nix)\b/, vendor: 'Nix' },
  { url: /^https?:\/\/ollama\.com\/install\.sh(?=[/:?#]|$)/, vendor: 'Ollama' },
  { url: /^https?:\/\/tailscale\.com\/install\.sh(?=[/:?#]|$)/, vendor: 'Tailscale' },
  { url: /^https?:\/\/get\.k3s\.io(?=[/:?#]|$)/, vendor: 'k3s' },
  { url: /^https?:\/\/rclone\.org\/install\.sh(?=[/:?#]|$)/, vendor: 'rclone' },
  { url: /^https?:\/\/starship\.rs\/install\.sh(?=[/:?#]|$)/, vendor: 'Starship' },
  { url: /^https?:\/\/claude\.ai\/install\.(?:sh|ps1|cmd)\b/, vendor: 'Anthropic (Claude Code)' },
  { url: /^https?:\/\/foundry\.paradigm\.xyz(?=[/:?#]|$)/, vendor: 'Foundry' },
  { url: /^https?:\/\/release\.(?:solana\.com|anza\.xyz)\//, vendor: 'Solana (Anza)' },
];

/** The vendor whose official installer this URL is, or null. */
export function officialInstaller(url: string): string | null {
  return OFFICIAL_INSTALLERS.find((o) => o.url.test(url))?.vendor ?? null;
}

// What lets a fetch get other code than the vendor's: TLS checks off, another address or proxy,
// another URL or a config file of options.
const FETCH_REDIRECTED = /(?:^|\s)(?:-k|--insecure|--resolve|--connect-to|-x|--proxy|--preproxy|-K|--config|--url|--no-check-certificate|-e|--execute)(?=[\s=]|$)|\bhttp_proxy=|\bhttps_proxy=/i;
const URLS_IN = /\bhttps?:\/\/[^\s'"|;&)<>`]+/gi;

/**
 * The vendor whose official installer a call fetches (and runs, in the same command), or null:
 * every URL in it is that vendor's installer over https, and nothing redirects the fetch. A script
 * downloaded earlier counts when that download was such a fetch and nothing wrote to the file since.
 */
export function vendorInstallerCall(text: string, url: string): string | null {
  const head = text.length > 4_000 ? text.slice(0, 4_000) : text;
  if (!head.includes(url) || FETCH_REDIRECTED.test(head)) return null;
  const urls = head.match(URLS_IN) ?? [];
  if (urls.length === 0 || urls.some((u) => !u.toLowerCase().startsWith('https://') || officialInstaller(u) === null)) return null;
  return officialInstaller(url);
}

// ---- the rules ----------------------------------------------------------------------------------

const DOWNLOADS_MAX = 50;
const VALUES_MAX = 100;

export const EXFILTRATION_RULES: Rule[] = [
  {
    metas: [remoteCodeExecution],
    create(outer) {
      const downloaded = new Map<string, string>();
      // Vendors' installers downloaded by a clean fetch (url → vendor), until a write touches the file.
      const vendorDownloads = new Map<string, string>();
      const requests = requestsOf(outer.session);
      const outcomes = new Outcomes(outer, [remoteCodeExecution]);
      let current: { event: NormEvent; text: string; url: string | null } | null = null;
      // Code that ran was fetched first: a failed download ran nothing. An installer the user asked
      // for (the tool's own site) or a dictated command is the user's choice: a warning (info for a
      // vendor's official installer); a vendor's installer nobody asked for, info too.
      const ctx: RuleContext = {
        session: outer.session,
        report: (d) => {
          if (!current) return outer.report(d);
          const { event, text, url } = current;
          // The user gave this very script's URL (typed the command, any shell's spelling): their
          // own act, context. An installer they asked for by name is their choice: a warning.
          const own = url !== null && url.length >= 16 ? whoAsked(requests.for(event).filter((r) => !r.agreed), (t) => t.includes(url)) : null;
          if (own) return outcomes.report(event, 'network', asRequested(d, remoteCodeExecution, own, 'the request gave this script\'s URL'));
          const asked = whoAsked(requests.for(event), (t) => dictates(t, text) || (url !== null && requestedInstaller(t, url) !== null));
          // A vendor's own installer from its own site (uv from astral.sh, pip from bootstrap.pypa.io):
          // asked for, it is the install the user wanted (info); unasked, a known source (info, below).
          // fetched and run in this call, or downloaded by a clean fetch and not written since
          const vendor = url === null ? null : text.includes(url) ? vendorInstallerCall(text, url) : vendorDownloads.get(url) ?? null;
          // the user's objection to a vendor's tool outweighs a loose reading of the request as asking for it
          const objected = vendor && url !== null && userSpokeAgainstInstaller(requests.for(event), requests.declined(), url);
          if (asked && !objected) return outcomes.report(event, 'network', asRequested(d, remoteCodeExecution, asked, 'the request asked to install this tool, or dictated the command', vendor ? 'info' : 'warning'));
          // Unasked, it is what a package manager does for a registry's packages — the vendor's own
          // code over HTTPS from its own site — and held-out reviewers called a warning for it a step
          // too loud each time (get-pip.py to mend a venv, rustup for the SDK the user chose): info.
          // (a tool the user named without asking for it — turned down, doubted — stays the user's call: a warning)
          const named = objected;
          if (vendor && (d.severity ?? remoteCodeExecution.severity) === 'critical') return outcomes.report(event, 'network', named
            ? { ...d, severity: 'warning', title: "A vendor's official installer run that the user did not ask for", detail: `${d.detail} It is ${vendor}'s official installer, from its own site; the user spoke of the tool, or turned it down when asked, without asking to install it.` }
            : { ...d, severity: 'info', title: "A vendor's official installer downloaded and run", detail: `${d.detail} It is ${vendor}'s official installer, from its own site over HTTPS: a known source, as a package manager's registry is.` });
          outcomes.report(event, 'network', d);
        },
      };
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          const fx = effectsOf(event, facts, ctx.session);
          const rce = facts.shell ? rceInShell(facts.shell) ?? rceInOtherShells(facts.shell) : null;
          // PowerShell's `iex (irm URL)` names its URL inside a script string: the first URL it shows.
          if (rce) current = { event, text: rce.cmd.text, url: networkTargets(rce.cmd).find((t) => t.url)?.url ?? /https?:\/\/[^\s"'`)]+/.exec(rce.cmd.text)?.[0] ?? null };
          if (rce) report(ctx, remoteCodeExecution.id, event, facts, `Remote code execution: ${rce.why}: \`${safe(rce.cmd.text, facts, QUOTE_MAX)}\`.`, describeCall(fx.call!));
          // a downloaded installer written to afterwards is no longer the vendor's file
          for (const w of fx.writes) {
            const was = downloaded.get(w.abs);
            if (was !== undefined) vendorDownloads.delete(was);
          }
          for (const loc of fx.commands) {
            const url = rce ? null : runsDownloaded(loc, downloaded, ctx.session);
            if (url) current = { event, text: loc.cmd.text, url };
            if (url) report(ctx, remoteCodeExecution.id, event, facts, `A script downloaded from ${safe(url, facts, QUOTE_MAX)} was executed: \`${safe(loc.cmd.text, facts, QUOTE_MAX)}\`.`, loc.cmd.text);
            for (const d of downloads(loc, ctx.session)) {
              downloaded.set(d.abs, d.url);
              const vendor = vendorInstallerCall(loc.cmd.text, d.url);
              if (vendor) setCapped(vendorDownloads, d.url, vendor, DOWNLOADS_MAX);
              else vendorDownloads.delete(d.url);
              if (downloaded.size > DOWNLOADS_MAX) downloaded.delete(downloaded.keys().next().value as string);
            }
          }
          current = null;
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
  {
    metas: [upload, dropSite, secretThenNetwork],
    create(outer) {
      const flow = new ExposureTracker();
      const requests = requestsOf(outer.session);
      const outcomes = new Outcomes(outer, [upload, dropSite, secretThenNetwork]);
      let current: NormEvent | null = null;
      // Every finding here says data left the machine: a refused connection sent nothing.
      const administered = new Set<string>();
      /** ssh calls waiting for their result: the hosts they reach, and the call's number. */
      const sshCalls = new Map<string, { hosts: string[]; at: number }>();
      // An ssh call whose result has not come yet (issued beside this one, in parallel) counts too:
      // had it failed, a copy to the same host would fail with it.
      let calls = 0;
      // only an ssh call issued within the last few calls (beside this one) — one that never got a result counts no longer
      const administers = (host: string) => administered.has(host) || [...sshCalls.values()].some((c) => c.hosts.includes(host) && calls - c.at <= PARALLEL_CALLS);
      const ctx: Consenting = { session: outer.session, administers, requests: () => (current ? requests.for(current) : []), report: (d) => (current ? outcomes.report(current, 'network', d) : outer.report(d)) };
      return {
        onEvent(event, facts) {
          requests.onEvent(event);
          outcomes.onEvent(event);
          if (event.kind === 'prompt') return flow.fromUser(event.text, facts);
          if (event.kind === 'tool_result') {
            const hosts = sshCalls.get(event.callId)?.hosts;
            sshCalls.delete(event.callId);
            // A terminal capture records no exit code: a result that is no error and printed something ran.
            const ran = event.exitCode === 0 || (event.exitCode === null && !event.isError && !event.interrupted && event.output.trim() !== '' && !SSH_FAILED.test(event.output.slice(0, 2_000)));
            if (hosts && ran && !event.denied) for (const h of hosts) addCapped(administered, h, 100);
            return flow.fromOutput(event, facts, outer.session);
          }
          if (event.kind !== 'tool_call') return;
          calls++;
          const fx = effectsOf(event, facts, ctx.session);
          current = event;
          checkNetwork(ctx, event, facts, fx, flow);
          current = null;
          // Hosts the session gets a shell on, once the ssh call's result shows it ran.
          const hosts = fx.commands.map((l) => sshHost(l.cmd)).filter((h): h is string => h !== null);
          if (hosts.length > 0) {
            setCapped(sshCalls, event.callId, { hosts, at: calls }, 200);
          }
          flow.fromCall(event, facts, fx);
        },
        finish() {
          outcomes.finish();
        },
      };
    },
  },
];

function report(ctx: RuleContext, rule: string, event: NormEvent, facts: EventFacts, detail: string, excerpt: string, extra: Partial<{ severity: 'critical' | 'warning' | 'info'; title: string; key: string; more: EvidenceItem[]; cause: { id: string; summary: string } }> = {}): void {
  ctx.report({
    rule,
    detail,
    severity: extra.severity,
    title: extra.title,
    key: extra.key,
    cause: extra.cause,
    evidence: [...(extra.more ?? []), evidence(event, excerpt, facts)],
  });
}

/** What the session has exposed so far: secret values from outputs, credential files, env dumps. */
class ExposureTracker {
  readonly values = new Set<string>();
  /** The detections behind `values`, to know each one's issuer. */
  private readonly hits = new Map<string, SecretHit>();
  /** Values the user typed into a prompt: the user exposed them, not the session. */
  private readonly fromUserValues = new Set<string>();
  readonly paths = new Set<string>();
  /** Services the exposed values were seen configured for (a URL on their line), per value. */
  private readonly homes = new Map<string, string>();
  first: EvidenceItem | null = null;
  what = '';
  /**
   * A recognised token, a credential file or an environment dump was exposed. Only such an
   * exposure supports the weaker inferences (a later upload, a request built from variables);
   * a value known only by its label (`password: …`) counts when that very value travels.
   */
  strong = false;

  fromUser(text: string, facts: EventFacts): void {
    for (const h of facts.secrets) addCapped(this.fromUserValues, h.value, VALUES_MAX);
    // Values from a URL the user typed are identifiers the user handed over (see secrets.ts).
    for (const part of urlIdentifiers(text)) addCapped(this.fromUserValues, part, VALUES_MAX);
  }

  fromOutput(event: NormEvent, facts: EventFacts, session: SessionFacts): void {
    // a service's own answer (a login's response): what it minted is used with it when sent back
    const call = event.kind === 'tool_result' && facts.call?.input.type === 'command' ? effectsOf(facts.call, { secrets: [] }, session) : null;
    const answeredBy = call ? answeringHost(call.net, call.commands.map((l) => l.cmd.name), call.reads.length > 0) : null;
    // Every hit is a recognised format or a value labelled as a credential (see secrets/detect.ts).
    for (const h of facts.secrets) {
      // A token the user handed over and a tool then echoed was exposed by the user, not read by the agent.
      if (this.fromUserValues.has(h.value)) continue;
      addCapped(this.values, h.value, VALUES_MAX);
      if (this.hits.size < VALUES_MAX) this.hits.set(h.value, h);
      const text = event.kind === 'tool_result' ? event.output : '';
      // (only a value no provider's format ties to its issuer: a JWT, a labelled token)
      const home = (text ? homeHostOf(text, h.start, h.end) : null) ?? (mintable(h) ? answeredBy : null);
      if (home && this.homes.size < VALUES_MAX && !this.homes.has(h.value)) this.homes.set(h.value, home);
      this.note(event, `${h.label} ${h.masked} was printed in tool output`, `${h.label} ${h.masked}`, facts, h.confidence === 'high');
    }
  }

  fromCall(event: NormEvent, facts: EventFacts, fx: Effects): void {
    for (const r of sensitiveReads(fx)) {
      addCapped(this.paths, r.abs, VALUES_MAX);
      if (r.path.length >= 4) addCapped(this.paths, r.path, VALUES_MAX);
      this.note(event, `${sensitiveLabel(r.sensitive!)} was read (${r.path})`, r.cmd?.text ?? describeCall(fx.call!), facts, true);
    }
    for (const loc of fx.commands) {
      // a dump filtered to named variables (`env | grep -i anthropic`) exposes only what its output
      // shows — the credentials in it are noted from the output (fromOutput); a whole dump exposes
      // the environment at once
      if (envDumpOf(loc, fx.commands) && !FILTERED_DUMP.test(describeCall(fx.call!))) this.note(event, 'the environment was dumped', loc.cmd.text, facts, true);
    }
  }

  private note(event: NormEvent, what: string, excerpt: string, facts: EventFacts, strong: boolean): void {
    // The first strong exposure replaces a weak one as the evidence shown.
    if (this.first && (this.strong || !strong)) return;
    this.strong ||= strong;
    this.first = evidence(event, excerpt, facts, this.values);
    this.what = what;
  }

  /** Does this text carry an exposed secret or name an exposed file? */
  carries(text: string): boolean {
    return this.carriesValue(text) || [...this.paths].some((p) => text.includes(p));
  }

  /** Does this text carry an exposed secret's value (a file path alone does not count)? */
  carriesValue(text: string): boolean {
    for (const v of this.values) if (text.includes(v)) return true;
    return false;
  }

  /**
   * The credential this text carries, when it carries a known value (not only a file path): its
   * cause is the credential's, so "printed, then sent" is one finding with the output rule's.
   */
  causeOf(text: string): { id: string; summary: string } | undefined {
    for (const v of this.values) {
      const hit = text.includes(v) ? this.hits.get(v) : undefined;
      if (hit) return credentialCause(hit);
    }
    return undefined;
  }

  /**
   * Does this text carry exposed secrets only to the services that issued them (a GitHub token
   * read from a file, used against api.github.com)? Then nothing left for anywhere new.
   */
  onlyToIssuers(text: string, hosts: string[]): boolean {
    for (const p of this.paths) if (text.includes(p)) return false;
    let carried = 0;
    for (const v of this.values) {
      if (!text.includes(v)) continue;
      const hit = this.hits.get(v);
      const home = this.homes.get(v);
      if (!hit || !hosts.every((h) => isIssuerHost(hit, h) || (home !== undefined && belongsTo(h, home)))) return false;
      carried++;
    }
    return carried > 0;
  }

  /** Every host is a service the exposed values were seen configured for: a request built from variables reaches their own services. */
  onlyToHomes(hosts: string[]): boolean {
    if (this.homes.size === 0 || hosts.length === 0) return false;
    // (a host that once answered with a token is that token's home, not every exposed value's)
    const homes = [...this.homes.values()].filter((home) => !home.startsWith('host:'));
    if (homes.length === 0) return false;
    return hosts.every((h) => homes.some((home) => belongsTo(h, home)));
  }
}

function checkNetwork(ctx: Consenting, event: NormEvent & { kind: 'tool_call' }, facts: EventFacts, fx: Effects, flow: ExposureTracker): void {
  const sameEventReads = sensitiveReads(fx);
  for (const n of fx.net) {
    if (n.local || n.cmd) continue;
    // web_fetch: a drop site, or a URL that carries an exposed secret.
    const drop = hostMatches(n.host, COLLECTORS) ?? hostMatches(n.host, PASTE_HOSTS);
    if (drop) {
      const collector = hostMatches(n.host, COLLECTORS) !== null;
      report(ctx, dropSite.id, event, facts, `The agent fetched ${safe(n.url ?? n.host, facts, QUOTE_MAX)} (${drop}).`, describeCall(event), { severity: collector ? 'critical' : 'warning', key: drop });
    } else if (n.url && flow.carries(n.url) && !flow.onlyToIssuers(n.url, [n.host])) {
      report(ctx, secretThenNetwork.id, event, facts, `After ${flow.what}, a fetched URL carried it to ${n.host}.`, describeCall(event), { more: flow.first ? [flow.first] : [], cause: flow.causeOf(n.url) });
    }
  }
  for (const loc of fx.commands) {
    const hosts = remoteHosts(loc.cmd);
    if (hosts.length === 0) continue;
    const drop = hosts.map((h) => hostMatches(h, COLLECTORS) ?? hostMatches(h, PASTE_HOSTS)).find((d) => d) ?? null;
    const files = uploadFiles(loc, fx.commands);
    if (drop) {
      const collector = COLLECTORS.includes(drop);
      const sent = collector || files.length > 0 || sendsData(loc);
      // a tunnel is most often the project's own endpoint under development (a Slack or Stripe
      // webhook tried through ngrok): a payload written out in the command carried nothing else
      if (TUNNELS.includes(drop) && files.length === 0 && literalPayloadOnly(loc) && !flow.carries(loc.cmd.text)) {
        report(ctx, dropSite.id, event, facts, `A payload written out in the command was sent to ${drop}, a tunnel (most often to the project's own endpoint under development): \`${safe(loc.cmd.text, facts, QUOTE_MAX, flow.values)}\`. Nothing else went with it: no file, no variable, no command's output.`, loc.cmd.text, { severity: 'info', title: 'Literal test payload sent through a tunnel', key: `${drop} (literal)` });
        continue;
      }
      const asked = whoAsked(ctx.requests(), (t) => dictates(t, loc.cmd.text) || asksTransfer(t, hosts, files));
      const draftCtx = asked ? consented(ctx, dropSite, asked) : ctx;
      report(draftCtx, dropSite.id, event, facts, `${sent ? 'Data was sent to' : 'The agent downloaded from'} ${drop}: \`${safe(loc.cmd.text, facts, QUOTE_MAX, flow.values)}\`.`, loc.cmd.text, { severity: sent ? 'critical' : 'warning', title: sent ? undefined : 'Anonymous paste host contacted', key: drop });
      continue;
    }
    if (files.length > 0) {
      reportUpload(ctx, event, facts, loc, files, hosts, flow);
      continue;
    }
    // `ssh host "cat /root/.app/auth.json"`: the read runs on that host, and its content comes
    // back here; nothing local was read and sent.
    const readsHere = sameEventReads.some((r) => !(loc.cmd.name === 'ssh' && r.cmd !== undefined && r.cmd.nested !== null && loc.cmd.text.includes(r.cmd.text)));
    // A script that read the file into variables: this request carries what it references, no more.
    const carriage = readsHere && event.input.type === 'command' && loc.cmd.pipeIndex === 0 ? scriptCarriage(event.input.command, loc.cmd, sameEventReads.map((r) => r.path), hosts) : 'unknown';
    if ((carriage === 'none' || carriage === 'issuer') && !flow.carriesValue(loc.cmd.text)) continue;
    if (readsHere && event.input.type === 'command' && pipedToIssuer(event.input.command, loc.cmd, hosts) && !flow.carriesValue(loc.cmd.text)) continue;
    checkSecretFlow(ctx, event, facts, loc, hosts, flow, readsHere);
  }
}

/** Calls issued together in one turn (parallel tool calls): an ssh among them speaks for a copy beside it. */
const PARALLEL_CALLS = 3;

/** ssh's own words for a connection that gave no shell. */
const SSH_FAILED = /Permission denied \(publickey|ssh: connect to host|ssh: Could not resolve hostname|Could not resolve hostname|Host key verification failed|Are you sure you want to continue connecting|kex_exchange_identification|Too many authentication failures|Connection closed by [\d.:a-f]+ port 22/i;

/** The rule context of the network rules, with the requests that stand behind the current call. */
interface Consenting extends RuleContext {
  requests(): readonly Request[];
  /** A host the session has a shell on (`ssh root@host …` earlier): a server it administers. */
  administers(host: string): boolean;
}

/**
 * A context whose reports are "as requested": a transfer the user asked for (or dictated) that
 * carried a credential, followed a secret read, or sent more than the project's own files (a home
 * folder, `~/.config`, data piped in) is a warning, never critical — what left the machine with it
 * still deserves a look; one that carried only the project's files and nothing of the kind (a build
 * deployed to the server the user named) is the request itself (`projectOnly`).
 */
function consented(ctx: Consenting, m: typeof upload, asked: Asker, projectOnly = true): Consenting {
  return { ...ctx, report: (d) => ctx.report(asRequested(d, m, asked, 'the request asked for this transfer', (d.severity ?? m.severity) === 'critical' || !projectOnly ? 'warning' : 'info')) };
}

/**
 * The host an `ssh` command gives the session a shell on (`ssh root@203.0.113.7 …`), or null: not
 * a connection test (`-T`), a config query (`-G`, `-V`) or a control command (`-O`).
 */
function sshHost(cmd: SimpleCommand): string | null {
  if (cmd.name !== 'ssh' || cmd.args.some((a) => /^-[TGVO]/.test(a))) return null;
  const host = networkTargets(cmd)[0]?.host;
  return host && !/[$`]/.test(host) ? host : null;
}

function reportUpload(outer: Consenting, event: NormEvent, facts: EventFacts, loc: Located, files: string[], hosts: string[], flow: ExposureTracker): void {
  const asked = whoAsked(outer.requests(), (t) => dictates(t, loc.cmd.text) || asksTransfer(t, hosts, files));
  const projectOnly = files.every((f) => !f.startsWith('(') && ['worktree', 'tmp'].includes(locate(f, loc.dir, outer.session).zone));
  const ctx = asked ? consented(outer, upload, asked, projectOnly) : outer;
  const sensitive = files.filter((f) => f !== '(stdin)' && f !== '(piped data)' && locate(f, loc.dir, ctx.session).sensitive !== null);
  // Files copied to a server the session already works on over ssh: a deploy to the user's own
  // machine, not data leaving for somewhere else (issue 25: where did the data go?) — also after
  // a secret was seen, since a deploy carries the app's own configuration to where it runs. A
  // credential file named in the copy stays critical wherever it goes.
  const deploy = sensitive.length === 0 && hosts.every((h) => outer.administers(h));
  // After a secret was seen, only a server the user named is theirs for sure: a host the agent
  // picked and logged into itself could be anyone's.
  const named = deploy && flow.strong ? whoAsked(outer.requests(), (t) => hosts.every((h) => namesHost(t, h))) : null;
  const afterSecret = flow.strong && !(deploy && named);
  const critical = sensitive.length > 0 || afterSecret;
  const why = sensitive.length > 0 ? ` It carried a credential file (${sensitive.slice(0, 3).join(', ')}).` : afterSecret ? ` Earlier in the session: ${flow.what}.` : deploy ? ' The session administers that server over ssh: a deploy, not data leaving.' : '';
  // after a secret, a server the session logs into but the user never named is worth a look, not an alarm
  const lookOnly = afterSecret && deploy && sensitive.length === 0;
  report(ctx, upload.id, event, facts, `${files.slice(0, 3).join(', ')} sent to ${hosts[0]}: \`${safe(loc.cmd.text, facts, QUOTE_MAX, flow.values)}\`.${why}${lookOnly ? ' The session logs into that server over ssh, but the user never named it.' : ''}`, loc.cmd.text, {
    severity: lookOnly ? 'warning' : critical ? 'critical' : deploy ? 'info' : 'warning',
    title: lookOnly ? 'Files copied to a server the session logs into, after a secret was seen' : critical ? 'Sensitive data uploaded to a remote host' : deploy ? 'Files copied to a server the session administers' : undefined,
    key: deploy ? `deploy ${hosts[0]}` : hosts[0],
    more: afterSecret && sensitive.length === 0 && flow.first ? [flow.first] : [],
  });
}

/**
 * A substitution that prints one variable's value out of a file by its name, and nothing else:
 * `$(grep NAME f | cut -d= -f2)`, `$(sed -n 's/^NAME=//p' f)`. Options that print other lines
 * (`-v`, `-A`/`-B`/`-C`, `-E` alternations, `-f`, ranges) make it something else.
 */
const PICKED_NAME = /^\$\((?:(?:cat[ \t]+[^\s|()$`;&]{1,200}[ \t]*\|[ \t]*)?(?:grep|rg)[ \t]+(?:-[hismwo1]+[ \t]+)*['"]?\^?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=?['"]?(?:[ \t]+[^\s|()$`;&]{1,200})?)(?:[ \t]*\|[ \t]*(?:cut|head|tail|tr|sed|awk|xargs)\b[^()$`;&|]{0,80})*\)$|^\$\(sed[ \t]+-n[ \t]+['"]s[/|]\^?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=[/|]{2}p['"][ \t]+[^\s|()$`;&]{1,200}\)$/;
const SUBSTITUTION = /\$\([^()]{0,400}\)/g;
/** Options that send a request elsewhere than the URL it names. */
const REROUTED = /(?:^|\s)(?:-x|--proxy|--socks\d\w*|--preproxy|--resolve|--connect-to)\b/;
/** Endpoints of an issuer that take anyone's content or forward it: a gist, a webhook, a bucket, an API gateway, a script. */
const USER_CONTENT = /\/gists\b|\/webhooks?\/|(?:^|\/\/)[^/\s]*(?:s3[.-][^/\s]*|execute-api\.[^/\s]*)amazonaws\.com|script\.google(?:usercontent)?\.com/i;

/**
 * What a request in a script carries of a credential file the script read into variables
 * (`RK=$(grep '^RESEND_API_KEY=' .env.local | cut -d= -f2-)` … `curl -H "Authorization: Bearer
 * $RK" https://api.resend.com/…`): 'none' when every variable it uses was set by the script from
 * something else (a literal, another request's answer); 'issuer' when the file's variables it uses
 * sit in an authorization header and are named for the service every host belongs to; 'carries'
 * otherwise; 'unknown' when it uses a variable the script did not set, reads inline, or the script
 * read the file some other way.
 */
function scriptCarriage(script: string, cmd: SimpleCommand, files: readonly string[], hosts: readonly string[]): 'none' | 'issuer' | 'carries' | 'unknown' {
  const text = cmd.text;
  // Only a script whose every read of the file is a one-line `VAR=$(… file …)` is followed: a read
  // in backticks, by `read`, through a variable path or a nested substitution, or a request that
  // reads a file itself (`-d @f`, `-F x=@f`, `-T f`, `-K f`, `< f`), is left to the file-level judgement.
  if (script.length > 20_000 || /\$\(|`/.test(text) || READS_A_FILE.test(cmd.args.join(' ')) || cmd.redirects.some((r) => r.op.startsWith('<')) || REROUTED.test(text)) return 'unknown';
  const names = [...new Set(files.map((f) => f.replace(/^.*[\\/]/, '')).filter((f) => f.length >= 3))];
  const picks = new Map<string, string | null>();
  const own = new Set<string>();
  let readsSeen = 0;
  for (const m of script.matchAll(ASSIGNMENT)) {
    const [, name, value] = m;
    const readsFile = value.startsWith('$(') && names.some((f) => value.includes(f));
    if (readsFile) readsSeen++;
    // any value built from a credential variable carries it (`X=$(echo $RK | base64)`, `Y="$RK"`)
    const copies = [...value.matchAll(VARIABLE)].some((v) => picks.has(v[1]));
    const picked = readsFile ? PICKED_NAME.exec(value) : null;
    const entry = picked ? (picked[1] ?? picked[2] ?? null) : null;
    // an entry the script named that is no credential (`EMAIL_FROM`, `NEXT_PUBLIC_URL`, `PORT`) carries none
    if ((readsFile || copies) && !(entry !== null && !CREDENTIAL_ENTRY.test(entry))) picks.set(name, entry);
    else own.add(name);
  }
  if (picks.size === 0) return 'unknown';
  // the file read anywhere else in the script — in backticks, by `read`, a nested or multi-line
  // substitution, through a path in a variable, `source`, `cat f | …` — every mention not a one-line pick
  const mentions = names.reduce((n, f) => n + script.split(f).length - 1, 0);
  if (mentions > readsSeen) return 'unknown';
  const unquoted = text.replace(/'[^']*'/g, '');
  const used = [...unquoted.matchAll(VARIABLE)].map((v) => v[1]);
  if (used.some((v) => !picks.has(v) && !own.has(v) && !SHELL_SPECIAL.has(v))) return 'unknown';
  const tainted = used.filter((v) => picks.has(v));
  if (tainted.length === 0) return 'none';
  const toIssuer = hosts.length > 0 && tainted.every((v) => {
    const entry = picks.get(v);
    const domains = entry ? issuerDomainsOfName(entry) : [];
    // every place the variable is used is an authorization header (none in a body that goes on)
    const uses = [...text.matchAll(new RegExp(String.raw`\$\{?${v}\b\}?`, 'g'))];
    return domains.length > 0 && uses.length > 0 && uses.every((u) => inAuthorizationAt(text, u.index)) && hosts.every((h) => underDomains(h, domains));
  });
  return toIssuer && !USER_CONTENT.test(text) ? 'issuer' : 'carries';
}

/** A request option that sends a file's content (curl's `-d @f`, `-F x=@f`/`<f`, `-T f`, `-K f`; wget's `--post-file`). */
const READS_A_FILE = /(?:^|\s)(?:-d|--data(?:-[a-z]+)?)\s*@|(?:^|\s)(?:-F|--form)\s+[^\s=]*=[@<]|(?:^|\s)(?:-T|--upload-file|-K|--config|--post-file|--body-file)\b|(?:^|\s)-[A-Za-z]*K\b|(?:^|\s)-H\s+@/;

/** Entry names that hold a credential. */
const CREDENTIAL_ENTRY = /KEY|TOKEN|SECRET|PASSW|PASS\b|PWD|CREDENTIAL|AUTH|PRIVATE|CERT|DSN|UR[IL]\b|_SK\b|WEBHOOK|HOOK|CONNECTION|COOKIE|SESSION|SIGNING|SALT/i;

/** `NAME=value` at a statement's start (also after export/local/readonly), its value one word, quoted string or substitution. */
const ASSIGNMENT = /(?:^|[\n;&|(]\s*|\b(?:export|local|readonly|declare)\s+)([A-Za-z_]\w*)=("[^"\n]*"|'[^'\n]*'|\$\([^()\n]{0,400}\)|[^\s;&|]*)/g;
const VARIABLE = /\$\{?([A-Za-z_]\w*)/g;
/** Variables a shell sets itself. */
const SHELL_SPECIAL = new Set(['HOME', 'PWD', 'USER', 'PATH', 'RANDOM', 'SECONDS', 'TMPDIR', 'OLDPWD', 'HOSTNAME', 'SHELL']);

/**
 * The credential the command reads is a variable named for the service every host belongs to,
 * picked out alone, sent only in an authorization header to that service's own API (issue 25:
 * a credential used with its issuer). Any other substitution, a value carried in from an earlier
 * read, a rerouting option or an endpoint that takes anyone's content makes it a transfer again.
 */
function readsOnlyIssuerNames(text: string, hosts: string[], flow: ExposureTracker): boolean {
  if (hosts.length === 0 || text.length > 4_000 || REROUTED.test(text) || USER_CONTENT.test(text) || flow.carriesValue(text)) return false;
  const subs = [...text.matchAll(SUBSTITUTION)].map((m) => m[0]);
  if (subs.length === 0 || (text.match(/\$\(/g) ?? []).length !== subs.length || /`/.test(text)) return false;
  return subs.every((sub) => {
    const m = PICKED_NAME.exec(sub);
    const name = m?.[1] ?? m?.[2];
    if (!name || !inAuthorization(text, sub)) return false;
    return hosts.every((h) => issuedBy(name, h));
  });
}

/**
 * Is `host` the service a credential named `name` is for: its known issuer's domains only. A host
 * that merely carries a word of the name (`DEPLOY_TOKEN` to `deployhooks.net`, `VAULT_TOKEN` to
 * `vault.attacker.io`) is the part a sender chooses, so it proves nothing.
 */
function issuedBy(name: string, host: string): boolean {
  const domains = issuerDomainsOfName(name);
  return domains.length > 0 && underDomains(host, domains);
}

/** The pipeline's first step picks one entry by name (`grep GITHUB_PAT ../.env`, `grep '^NPM_TOKEN=' .env`). */
const PIPED_PICK = /^\s*(?:grep|rg|egrep)\s+(?:-[A-Za-z]+\s+)*(["']?)\^?([A-Za-z_][A-Za-z0-9_]*)=?\1\s+[^\s|;&]+\s*\|/;

/**
 * `grep GITHUB_PAT ../.env | cut -d= -f2 | xargs -I {} git push https://dp-web4:{}@github.com/…`:
 * one entry picked by a name that names the service, handed by xargs only into the password of a
 * URL (or an authorization header) of that service's own hosts — the credential used with its
 * issuer to log in, not sent anywhere else (issue 25, item 3).
 */
function pipedToIssuer(line: string, cmd: SimpleCommand, hosts: string[]): boolean {
  if (hosts.length === 0 || line.length > 2_000 || cmd.pipeIndex === 0 || !cmd.wrappers.includes('xargs') || USER_CONTENT.test(line)) return false;
  const pick = PIPED_PICK.exec(line);
  if (!pick || (line.match(/\|/g) ?? []).length !== cmd.pipeIndex) return false;
  const xargs = cmd.wrapperArgs?.[cmd.wrappers.indexOf('xargs')] ?? [];
  const at = xargs.findIndex((a) => a === '-I' || a === '-i' || a === '--replace');
  const placeholder = at >= 0 ? xargs[at + 1] : /^-I(.+)$/.exec(xargs.find((a) => /^-I./.test(a)) ?? '')?.[1];
  if (!placeholder || placeholder.length > 10) return false;
  const uses = cmd.args.filter((a) => a.includes(placeholder));
  const slot = new RegExp(String.raw`^[a-z+]+://[^:@/\s]+:${escapeRegExp(placeholder)}@[^/\s]+`);
  if (uses.length === 0 || !uses.every((a) => slot.test(a))) return false;
  return hosts.every((h) => issuedBy(pick[2]!, h));
}

/** The substitution sits in an Authorization header or a `-u user:…` credential argument. */
function inAuthorization(text: string, sub: string): boolean {
  return inAuthorizationAt(text, text.indexOf(sub));
}

function inAuthorizationAt(text: string, at: number): boolean {
  if (at < 0) return false;
  const before = text.slice(Math.max(0, at - 80), at);
  return /(?:-H|--header)[ \t]+["']?(?:Authorization|apikey|x-api-key|api-key|x-auth-token|private-token):[^"'\n]*$|(?:-u|--user)[ \t]+["']?[^\s"']*:$/i.test(before);
}

function checkSecretFlow(ctx: RuleContext, event: NormEvent, facts: EventFacts, loc: Located, hosts: string[], flow: ExposureTracker, readsHere: boolean): void {
  const text = loc.cmd.text;
  // A credential read inside this very command ($(cat ~/.aws/credentials)) is the strongest link.
  if (!readsHere && flow.onlyToIssuers(text, hosts)) return; // the credential used with its own service
  // …unless what it reads is a variable named for the service it is sent to
  // (`-H "Authorization: token $(grep GITHUB_TOKEN .env | cut -d= -f2)"` to api.github.com).
  if (readsHere && readsOnlyIssuerNames(text, hosts, flow)) return;
  // A path in the command ssh runs names a file on that host (`ssh host 'cat /srv/app/.env'` reads
  // it there): only an exposed value itself, written into the command, is carried to it.
  // A substitution outside single quotes runs here, before ssh sends its output
  // (`ssh h "echo $(cat .env) > /opt/app/.env"`): that one carries the local file.
  const remoteOnly = loc.cmd.name === 'ssh' && !/\$\(|`/.test(text.replace(/'[^']*'/g, ''));
  const carried = remoteOnly ? flow.carriesValue(text) : flow.carries(text);
  const strong = readsHere || ((flow.first !== null) && carried);
  const viaVariable = flow.strong && /\$\{?[A-Za-z_]|`/.test(loc.cmd.args.join(' ')) && sendsData(loc) && !flow.onlyToHomes(hosts);
  if (!strong && !viaVariable) return;
  report(ctx, secretThenNetwork.id, event, facts, strong
    ? `${readsHere ? 'A credential file was read and sent' : `After ${flow.what}, it was sent`} to ${hosts[0]}: \`${safe(text, facts, QUOTE_MAX, flow.values)}\`.`
    : `After ${flow.what}, a request to ${hosts[0]} sent shell variables that may hold it: \`${safe(text, facts, QUOTE_MAX, flow.values)}\`.`,
  text, {
    severity: strong ? 'critical' : 'warning',
    title: strong ? undefined : 'Request with variables after a secret was read',
    key: strong ? 'strong' : 'variable',
    more: flow.first && !readsHere ? [flow.first] : [],
    cause: strong && !readsHere ? flow.causeOf(text) : undefined,
  });
}
