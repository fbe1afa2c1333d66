// Outgoing email over SMTP (VOUCH_SMTP_URL), with nodemailer: invitations and password-reset
// links. Optional: without a URL there is no mailer and the dashboard shows links to copy.
// nodemailer is loaded on the first message, so a server that never sends mail never loads it.
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface SmtpOptions {
  /** smtp://user:pass@host:port or smtps://… (nodemailer's connection URL). */
  url: string;
  /** The From address, e.g. "Vouch <vouch@example.com>". */
  from: string;
  /** Give up on a message after this long (connection, greeting and socket idle each). */
  timeoutMs?: number;
}

export function createSmtpMailer(opts: SmtpOptions): Mailer {
  let transport: Promise<Transporter> | undefined;
  const timeout = opts.timeoutMs ?? 10_000;
  const open = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    const url = new URL(opts.url);
    // Connection settings from the URL; time-outs bounded so a dead server cannot hold a request.
    return nodemailer.createTransport({
      host: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      secure: url.protocol === 'smtps:',
      auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
      ignoreTLS: url.searchParams.get('ignoreTLS') === 'true',
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  };
  return {
    async send(message) {
      transport ??= open();
      await (await transport).sendMail({ from: opts.from, to: message.to, subject: message.subject, text: message.text });
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}
