import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { User } from '../services/people/users.ts';
import { interactionCsrfToken } from './interaction-csrf.ts';
import { formField, formTargetsOf, signInActor, type FormBody, type Interaction, type InteractionKit, type Params } from './interaction-kit.ts';
import { renderEnrolmentPage, renderRecoveryCodesPage } from './pages/enrolment-page.ts';
import { text } from '../pages/layout.ts';
import { interactionTicket, interactionTicketSubject, isFirstProof, TICKET_PURPOSES } from './second-step-ticket.ts';
import type { FirstProof } from '../domain/sign-in-decision.ts';
import { asksForMfa } from './step-up.ts';

const ENROLMENT_SECONDS = 900;

/** How the person proved who they are before enrolling (their password, or an upstream provider). It leads their `amr`. */
type FirstFactor = FirstProof;
const isFirstFactor = isFirstProof;

interface Enrolling {
  interaction: Interaction;
  user: User;
  first: FirstFactor;
}

/**
 * Enrolment inside a sign-in, for a person who must use a second factor (the policy, or an application
 * asking for acr_values=mfa) and has none: an authenticator app confirmed by a first code, or a passkey;
 * then the recovery codes, once; then the interaction finishes. No code reaches the application before.
 */
export function enrolmentRoutes(app: FastifyInstance, kit: InteractionKit) {
  const { deps, cookieKeys } = kit;
  const now = () => deps.clock.now();

  async function showEnrolment(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    interaction: Interaction,
    user: User,
    problem: { factorId?: string; failed?: 'code' | 'passkey' } = {},
    first: FirstFactor = 'pwd',
  ) {
    const actor = signInActor(user, request.ip);
    const language = kit.languageOf(request, interaction, user.locale);
    const pending = problem.factorId ? await deps.services.factors.pendingTotp(actor, problem.factorId) : null;
    // The factor's name is what My account lists: in the language the person signs in with.
    const totp = pending ?? (await deps.services.factors.startTotp(actor, { name: text(language, 'enrol.factorName.totp') }));
    const page = renderEnrolmentPage({
      uid: interaction.uid,
      csrfToken: interactionCsrfToken(cookieKeys, interaction.uid),
      ticket: interactionTicket(cookieKeys, TICKET_PURPOSES.enrolment, interaction.uid, `${user.subjectId}:${first}`, now(), ENROLMENT_SECONDS),
      clientName: (await kit.clientName(interaction)) ?? '',
      factorId: totp.factorId,
      secret: totp.secret,
      qrCodeSvg: totp.qrCodeSvg,
      required: !asksForMfa(interaction.params),
      failed: problem.failed,
      language,
    });
    return kit.sendPage(reply, problem.failed ? 400 : 200, page, formTargetsOf(interaction));
  }

  /** The step's interaction and the person its enrolment ticket names; answers the request itself when either is missing. */
  async function enrolling(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Enrolling | null> {
    const interaction = await kit.load(request, reply);
    if (!interaction || kit.csrfRejected(request, reply)) return null;
    if (interaction.prompt.name !== 'login') {
      kit.wrongStep(reply, kit.languageOf(request, interaction));
      return null;
    }
    const [subjectId, first] = interactionTicketSubject(cookieKeys, TICKET_PURPOSES.enrolment, interaction.uid, formField(request.body as FormBody, 'ticket'), now())?.split(':') ?? [];
    const user = subjectId && isFirstFactor(first) ? await deps.services.users.getUser(subjectId) : null;
    if (!user || user.status !== 'active' || !isFirstFactor(first)) {
      kit.wrongStep(reply, kit.languageOf(request, interaction));
      return null;
    }
    return { interaction, user, first };
  }

  async function showRecoveryCodes(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, step: Enrolling, factorId: string, recoveryCodes: string[] | undefined) {
    const { interaction, user, first } = step;
    const ticket = interactionTicket(cookieKeys, TICKET_PURPOSES.enrolled, interaction.uid, `${user.subjectId}:${factorId}:${first}`, now(), ENROLMENT_SECONDS);
    if (!recoveryCodes) return finishEnrolled(request, reply, step, factorId);
    const page = renderRecoveryCodesPage({ uid: interaction.uid, csrfToken: interactionCsrfToken(cookieKeys, interaction.uid), ticket, clientName: (await kit.clientName(interaction)) ?? '', recoveryCodes, language: kit.languageOf(request, interaction, user.locale) });
    return kit.sendPage(reply, 200, page, formTargetsOf(interaction));
  }

  async function finishEnrolled(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, { interaction, user, first }: Enrolling, factorId: string) {
    const factors = (await deps.services.factors.listFactors(signInActor(user, request.ip))).factors;
    const factor = factors.find((candidate) => candidate.factorId === factorId);
    if (!factor || factor.type === 'recovery_codes') return kit.wrongStep(reply, kit.languageOf(request, interaction, user.locale));
    return kit.decideAndContinue(request, reply, interaction, user, { first, second: factor.type === 'passkey' ? 'hwk' : 'otp' });
  }

  app.post<{ Params: Params }>('/interaction/:uid/enrol', async (request, reply) => {
    const step = await enrolling(request, reply);
    if (!step) return reply;
    const body = request.body as FormBody;
    const factorId = formField(body, 'factorId');
    try {
      const { recoveryCodes } = await deps.services.factors.confirmTotp(signInActor(step.user, request.ip), factorId, formField(body, 'code').replace(/\s/g, ''));
      return showRecoveryCodes(request, reply, step, factorId, recoveryCodes);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_request') throw error;
      return showEnrolment(request, reply, step.interaction, step.user, { factorId, failed: 'code' }, step.first);
    }
  });

  app.post<{ Params: Params }>('/interaction/:uid/enrol/passkey/options', async (request, reply) => {
    const step = await enrolling(request, reply);
    if (!step) return reply;
    const options = await deps.services.passkeys.registrationOptions(signInActor(step.user, request.ip));
    return reply.header('cache-control', 'no-store').send(options);
  });

  app.post<{ Params: Params }>('/interaction/:uid/enrol/passkey', async (request, reply) => {
    const step = await enrolling(request, reply);
    if (!step) return reply;
    try {
      const response = JSON.parse(formField(request.body as FormBody, 'credential')) as unknown;
      const { factor, recoveryCodes } = await deps.services.passkeys.addPasskey(signInActor(step.user, request.ip), { name: text(kit.languageOf(request, step.interaction, step.user.locale), 'enrol.factorName.passkey'), response });
      return showRecoveryCodes(request, reply, step, factor.factorId, recoveryCodes);
    } catch (error) {
      if (!(error instanceof SyntaxError) && !(error instanceof AppError && error.code === 'invalid_request')) throw error;
      return showEnrolment(request, reply, step.interaction, step.user, { failed: 'passkey' }, step.first);
    }
  });

  app.post<{ Params: Params }>('/interaction/:uid/enrolled', async (request, reply) => {
    const interaction = await kit.load(request, reply);
    if (!interaction || kit.csrfRejected(request, reply)) return reply;
    if (interaction.prompt.name !== 'login') return kit.wrongStep(reply, kit.languageOf(request, interaction));
    const subject = interactionTicketSubject(cookieKeys, TICKET_PURPOSES.enrolled, interaction.uid, formField(request.body as FormBody, 'ticket'), now());
    const [subjectId, factorId, first] = subject?.split(':') ?? [];
    const user = subjectId ? await deps.services.users.getUser(subjectId) : null;
    if (!user || user.status !== 'active' || !factorId || !isFirstFactor(first)) return kit.wrongStep(reply, kit.languageOf(request, interaction));
    return finishEnrolled(request, reply, { interaction, user, first }, factorId);
  });

  return { showEnrolment };
}
