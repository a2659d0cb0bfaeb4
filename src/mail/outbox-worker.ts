import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../domain/clock.ts';
import type { OutgoingMailService } from '../services/shared/mail/outgoing-mail.ts';
import { renderMail } from './mail-templates.ts';
import type { MailTransport } from './smtp-transport.ts';

export interface OutboxWorkerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface OutboxWorkerOptions {
  outgoingMail: OutgoingMailService;
  transport: MailTransport;
  issuer: string;
  log: OutboxWorkerLog;
  /** Leases and next tries are the worker's own time, whatever clock the services run on. */
  clock?: Clock;
  /** How often to look for new mail; new mail goes within this plus the send. */
  pollMs?: number;
}

export interface OutboxWorker {
  /** Stops looking, waits for the send in progress, and frees the mail it still held. */
  stop(): Promise<void>;
}

/** DESIGN.md section 12: a claim lapses within 30 s; failed sends back off from about 1 s to at most 30 s. */
export const OUTBOX_TIMING = { pollMs: 1_000, leaseMs: 30_000, firstRetryMs: 1_000, maxRetryMs: 30_000, batchSize: 10 } as const;

// A server that refuses a mail for good (5xx) is asked a few more times, then the mail is given up.
const PERMANENT_FAILURE_ATTEMPTS = 5;

export function retryDelayMs(attempts: number): number {
  const base = Math.min(OUTBOX_TIMING.maxRetryMs, OUTBOX_TIMING.firstRetryMs * 2 ** Math.max(0, attempts - 1));
  // A little jitter keeps instances that failed together from retrying in lockstep.
  return Math.min(OUTBOX_TIMING.maxRetryMs, Math.round(base * (0.9 + Math.random() * 0.2)));
}

const responseCodeOf = (error: unknown) => (typeof (error as { responseCode?: unknown }).responseCode === 'number' ? (error as { responseCode: number }).responseCode : 0);

/**
 * Sends the outbox: claims due mail with a lease (so every instance may run a worker and each mail
 * goes once), readies it (a link's token is made now), sends it over SMTP, and marks it sent only
 * after the server accepted it. A failed send is tried again later; nothing is lost while the mail
 * server is down. The first pass after a start ignores back-off, so a restart sends pending mail at once.
 */
export function startOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { outgoingMail, transport, issuer, log } = options;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? OUTBOX_TIMING.pollMs;
  const claimId = `claim_${randomUUID()}`;
  const messageIdHost = new URL(issuer).hostname.replace(/^\[|\]$/g, '') || 'sesame';
  let stopping = false;
  let firstPass = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function sendOne(claimed: Awaited<ReturnType<OutgoingMailService['claimDue']>>[number]): Promise<void> {
    const ready = await outgoingMail.prepare(claimed, claimId, clock.now() + OUTBOX_TIMING.leaseMs);
    if (!ready) return;
    const rendered = renderMail(ready, issuer);
    try {
      await transport.send({ to: ready.recipient, ...rendered, messageId: `<${ready.mailId}@${messageIdHost}>` });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (responseCodeOf(error) >= 500 && claimed.attempts >= PERMANENT_FAILURE_ATTEMPTS) {
        await outgoingMail.markDropped(ready.mailId, claimId, `refused by the mail server: ${message}`);
        log.warn({ mailId: ready.mailId, kind: ready.kind, attempts: claimed.attempts }, `mail given up: ${message}`);
        return;
      }
      const delay = retryDelayMs(claimed.attempts);
      await outgoingMail.markFailed(ready.mailId, claimId, clock.now() + delay, message);
      log.warn({ mailId: ready.mailId, kind: ready.kind, attempts: claimed.attempts, retryInMs: delay }, `mail not sent, will retry: ${message}`);
      return;
    }
    await outgoingMail.markSent(ready.mailId, claimId, clock.now());
  }

  async function pass(): Promise<number> {
    const now = clock.now();
    const dueBy = firstPass ? Number.MAX_SAFE_INTEGER : now;
    firstPass = false;
    const claimed = await outgoingMail.claimDue({ claimId, now, dueBy, leaseUntil: now + OUTBOX_TIMING.leaseMs, limit: OUTBOX_TIMING.batchSize });
    for (const mail of claimed) {
      if (stopping) break;
      try {
        await sendOne(mail);
      } catch (error) {
        // The database failed mid-way: the claim lapses and the mail is tried again.
        log.warn({ err: error, mailId: mail.mailId }, 'could not process an outbox mail');
      }
    }
    return claimed.length;
  }

  function schedule(delayMs: number): void {
    if (stopping) return;
    timer = setTimeout(() => {
      running = pass()
        .then((count) => schedule(count >= OUTBOX_TIMING.batchSize ? 0 : pollMs))
        .catch((error: unknown) => {
          log.warn({ err: error }, 'could not read the mail outbox; trying again');
          schedule(pollMs);
        });
    }, delayMs);
    timer.unref();
  }

  schedule(0);
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await running;
      await outgoingMail.releaseClaim(claimId).catch(() => 0);
      transport.close();
    },
  };
}
