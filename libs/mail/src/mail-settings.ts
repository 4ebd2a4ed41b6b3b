/**
 * Mail settings that libs/config does not carry (yet): read from the environment when the mail module starts.
 * Listed in the README's configuration table.
 */
export interface MailSettings {
  /** SMTP server of the distributed mode, e.g. `smtp://mailpit:1025` or `smtps://user:pass@smtp.example:465`. */
  smtpUrl: string;
  /** Sender address of every message. */
  from: string;
}

export function mailSettings(env: NodeJS.ProcessEnv, publicUrl: string): MailSettings {
  return {
    smtpUrl: env.SMTP_URL || 'smtp://localhost:1025',
    from: env.MAIL_FROM || `Payment Page Script Security <no-reply@${new URL(publicUrl).hostname}>`,
  };
}
