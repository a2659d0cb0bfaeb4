import { createTransport } from 'nodemailer';

export interface OutgoingMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row, so a receiver can tell a resend of one mail from two mails. */
  messageId: string;
}

export interface MailTransport {
  send(message: OutgoingMessage): Promise<void>;
  close(): void;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

// Every step of a send is bounded well inside the outbox claim (30 s), so a hung server cannot make
// a send outlive its claim and another instance send the same mail.
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000, dnsTimeout: 5_000 } as const;

/**
 * SMTP through nodemailer: `smtps://` is TLS from the start; `smtp://` must upgrade with STARTTLS, so a
 * server (or a man in the middle) that does not offer it never receives the credentials in SMTP_URL. A
 * relay on the loopback interface may speak plain SMTP and is not asked for a trusted certificate: the
 * connection never leaves the machine, and local relays usually have a self-signed one.
 */
export function createSmtpTransport(settings: { smtpUrl: string; from: string }): MailTransport {
  const host = new URL(settings.smtpUrl).hostname;
  const transporter = createTransport({
    url: settings.smtpUrl,
    ...TIMEOUTS,
    ...(LOOPBACK_HOSTS.has(host) ? { tls: { rejectUnauthorized: false } } : { requireTLS: true }),
  });
  return {
    async send(message) {
      await transporter.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId: message.messageId });
    },
    close: () => transporter.close(),
  };
}
