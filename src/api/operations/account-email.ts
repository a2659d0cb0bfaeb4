import { changeEmailRequest, changeEmailResponse, currentEmailResponse } from '../contracts/account-email.ts';
import { defineOperation } from '../operation.ts';
import { withPersonOnlyNote } from '../operation-surface.ts';
import { said, see } from '../../domain/pointed-text.ts';

export const changeMyEmail = defineOperation({
  operationId: 'changeMyEmail',
  method: 'POST',
  path: '/account/email',
  tag: 'My account',
  summary: 'Change and verify my email address',
  description:
    withPersonOnlyNote(
      'Mails the new address a single-use link (valid 24 hours) to `{issuer}/account/verify-email/{token}`, where a confirm button makes it ' +
    'your verified address without signing in. Until then the new address is only pending (`pendingEmail`): your current address stays in force ' +
    'and receives password reset mail, and it is told of the request. A newer request replaces the pending one. The answer is the same for every ' +
    'well-formed address; an address another account holds verified cannot be confirmed (the link page answers 409). ' +
    'Sending your current, already verified address changes nothing. Needs outgoing mail (SMTP_URL); without it the change is refused with 400.',
    ),
  access: 'session',
  onlyFrom: 'console',
  body: changeEmailRequest,
  bodyExample: { email: 'alice@example.com' },
  response: {
    status: 202,
    description: 'The verification mail to the new address is queued; the current address is unchanged.',
    schema: changeEmailResponse,
    example: { email: 'alice@example.com', emailVerified: true, pendingEmail: 'alice@example.org' },
  },
  errors: ['invalid_request'],
  async handle({ services, actor, body }) {
    return services.emailVerification.changeEmail(actor, body.email);
  },
});

export const getMyEmail = defineOperation({
  operationId: 'getMyEmail',
  method: 'GET',
  path: '/account/email',
  tag: 'My account',
  summary: 'Read my email address',
  description: said`Your address in force, whether it is verified, the address waiting for its verification link, and whether Sesame can mail one (${see('changeMyEmail')} needs outgoing mail).`,
  access: 'session',
  response: {
    status: 200,
    description: 'Your address.',
    schema: currentEmailResponse,
    example: { email: 'alice@example.com', emailVerified: true, pendingEmail: null, mailEnabled: true },
  },
  errors: [],
  async handle({ services, actor }) {
    return services.emailVerification.currentEmail(actor);
  },
});

export const accountEmailOperations = [getMyEmail, changeMyEmail];
