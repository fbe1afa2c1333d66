// The emails Vouch sends (with VOUCH_SMTP_URL set): an invitation and a password-reset link.
// Sent after the transaction that made the link committed; a failure is reported to the member
// (who still has the link on screen to copy), never undoes the link.
import type { Mailer } from '../adapters/mail/index.ts';

export type { Mailer };

/** What became of the email: sent, not configured (links are copied by hand), or failed. */
export type MailOutcome = 'sent' | 'off' | 'failed';

async function deliver(mailer: Mailer | null, to: string, subject: string, text: string, onError: (error: unknown) => void): Promise<MailOutcome> {
  if (!mailer) return 'off';
  try {
    await mailer.send({ to, subject, text });
    return 'sent';
  } catch (error) {
    onError(error);
    return 'failed';
  }
}

export interface InvitationMail {
  to: string;
  link: string;
  accountName: string;
  invitedBy: string;
  expiresAt: string;
  /** The address already has a Vouch account: say so here, where only its owner reads it. */
  hasAccount: boolean;
}

export function invitationText(m: InvitationMail): string {
  const lines = [
    `${m.invitedBy} invited you to join ${m.accountName} on Vouch.`,
    '',
  ];
  if (m.hasAccount) {
    lines.push(
      'This email address already has a Vouch account, and a person belongs to one account only, so the invitation cannot be used with it.',
      'If you want to join, ask to be invited with another address.',
    );
  } else {
    lines.push('Open this link to choose a password and join (it works once):', m.link, '', `The link expires at ${m.expiresAt}.`);
  }
  lines.push('', 'If you did not expect this, ignore this email.');
  return lines.join('\n');
}

export function sendInvitationMail(mailer: Mailer | null, m: InvitationMail, onError: (error: unknown) => void): Promise<MailOutcome> {
  return deliver(mailer, m.to, `Join ${m.accountName} on Vouch`, invitationText(m), onError);
}

export interface ResetMail {
  to: string;
  link: string;
  accountName: string;
  issuedBy: string;
  expiresAt: string;
}

export function resetText(m: ResetMail): string {
  return [
    `${m.issuedBy}, an owner of ${m.accountName} on Vouch, issued a link for you to choose a new password.`,
    '',
    'Open it to set your password (it works once; every session signed in with your old password ends):',
    m.link,
    '',
    `The link expires at ${m.expiresAt}. If you did not ask for this, tell the owners of your account.`,
  ].join('\n');
}

export function sendResetMail(mailer: Mailer | null, m: ResetMail, onError: (error: unknown) => void): Promise<MailOutcome> {
  return deliver(mailer, m.to, `Choose a new password for Vouch (${m.accountName})`, resetText(m), onError);
}
