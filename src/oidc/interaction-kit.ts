import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Provider } from 'oidc-provider';
import type { Actor } from '../domain/actor.ts';
import type { SignInProof } from '../domain/sign-in-decision.ts';
import type { SignIn, User } from '../services/people/users.ts';
import type { PageLanguage } from '../pages/layout.ts';
import type { OidcDeps } from './provider.ts';

export type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
export type InteractionResults = Parameters<Provider['interactionResult']>[2];
export type Params = { uid: string };
export type FormBody = Record<string, unknown> | undefined;

export const formField = (body: FormBody, name: string): string => {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
};

/** What every interaction step shares (interactions.ts builds it): loading the interaction, the CSRF check, pages, finishing. */
export interface InteractionKit {
  deps: OidcDeps;
  cookieKeys: readonly string[];
  load(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Interaction | null>;
  csrfRejected(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): boolean;
  wrongStep(reply: FastifyReply, language: PageLanguage): FastifyReply;
  /** The language of a step's page; `saved` is the person's preference when the step knows them. */
  languageOf(request: FastifyRequest<{ Params: Params }>, interaction: Interaction, saved?: string | null): PageLanguage;
  savedLocaleOf(subjectId: string): Promise<string | null | undefined>;
  clientName(interaction: Interaction): Promise<string | null>;
  rememberDevice(reply: FastifyReply, subjectId: string): void;
  sendPage(reply: FastifyReply, status: number, page: string, formTargets?: (string | undefined)[]): FastifyReply;
  showOneTimeCodePage(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    interaction: Interaction,
    ticket: string,
    status: number,
    problem?: { failed?: boolean; retryAfterSeconds?: number; passkeyFailed?: boolean },
    saved?: string | null,
  ): Promise<FastifyReply>;
  /** Acts on a sign-in decision: finishes with its amr/acr, or shows the second-factor or enrolment step. */
  continueSignIn(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, signIn: SignIn): Promise<FastifyReply>;
  /** Asks the sign-in decision for these proofs (and the application's acr_values), then acts on it. */
  decideAndContinue(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, interaction: Interaction, user: User, proof: SignInProof): Promise<FastifyReply>;
}

/** A person acting on their own account from a sign-in page (enrolling a factor), as the audit records it. */
export const signInActor = (user: Pick<User, 'subjectId' | 'isAdmin'>, ip: string): Actor => ({ subjectId: user.subjectId, isAdmin: user.isAdmin, surface: 'system', ip });

/** Where a page's forms may lead: this origin and the application's redirect URI. */
export const formTargetsOf = (interaction: Interaction) => [interaction.params.redirect_uri as string];
