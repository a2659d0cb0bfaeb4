import { changeEmailRequest, changeEmailResponse, currentEmailResponse } from '../contracts/account-email.ts';
import { defineOperation } from '../operation.ts';
import { PERSON_ONLY_NOTE } from '../operation-surface.ts';

export const changeMyEmail = defineOperation({
  operationId: 'changeMyEmail',
  method: 'POST',
  path: '/account/email',
  tag: 'My account',
  summary: 'Change and verify my email address',
  description:
    'Sets your email address, unverified, and mails it a single-use link (valid 24 hours) to `{issuer}/account/verify-email/{token}`, ' +
    'where a confirm button verifies it without signing in. Until then `email_verified` is false. ' +
    'Sending your current, already verified address changes nothing. Needs outgoing mail (SMTP_URL); without it the change is refused with 400.' +
    PERSON_ONLY_NOTE,
  access: 'session',
  onlyFrom: 'console',
  body: changeEmailRequest,
  bodyExample: { email: 'alice@example.com' },
  response: {
    status: 202,
    description: 'The address is set and the verification mail is queued.',
    schema: changeEmailResponse,
    example: { email: 'alice@example.com', emailVerified: false },
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
  description: 'Your address, whether it is verified, and whether Sesame can mail a verification link (`POST /account/email` needs outgoing mail).',
  access: 'session',
  response: {
    status: 200,
    description: 'Your address.',
    schema: currentEmailResponse,
    example: { email: 'alice@example.com', emailVerified: true, mailEnabled: true },
  },
  errors: [],
  async handle({ services, actor }) {
    return services.emailVerification.currentEmail(actor);
  },
});

export const accountEmailOperations = [getMyEmail, changeMyEmail];
