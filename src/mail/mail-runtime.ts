import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Operations } from '../ops/operations.ts';
import type { MailSettings } from '../services/shared/deps.ts';
import type { Services } from '../services/index.ts';
import { startOutboxWorker, type OutboxWorker } from './outbox-worker.ts';
import { createSmtpTransport } from './smtp-transport.ts';

/** What the services know of mail: whether it is on, and the limit on requests that send it. */
export function mailSettingsOf(config: Config, operations: Operations): MailSettings {
  return { enabled: config.mail !== undefined, requestLimiter: operations.rateLimits.mailRequests };
}

/**
 * With SMTP_URL set, starts this instance's outbox worker and stops it when the app closes (call
 * before the app is ready). Every instance may run one: claims keep each mail to one sender.
 */
export function runMailWorker(app: FastifyInstance, deps: { config: Config; services: Services }): OutboxWorker | null {
  const { mail, issuer } = deps.config;
  if (!mail) return null;
  const worker = startOutboxWorker({ outgoingMail: deps.services.outgoingMail, transport: createSmtpTransport(mail), issuer, log: app.log });
  app.addHook('onClose', async () => worker.stop());
  return worker;
}
