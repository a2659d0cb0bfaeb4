import { setLocaleRequest, setLocaleResponse } from '../contracts/account-locale.ts';
import { defineOperation } from '../operation.ts';

export const setMyLocale = defineOperation({
  operationId: 'setMyLocale',
  method: 'PUT',
  path: '/account/locale',
  tag: 'My account',
  summary: 'Choose my language',
  description:
    'Saves your language (`en` or `zh-CN`, or null to forget it). Sign-in and account pages that know who you are, the console, and every mail Sesame sends you use it; ' +
    'an application\'s `ui_locales` still wins on its own sign-in pages. Audited as `account.locale_change`.',
  access: 'session',
  body: setLocaleRequest,
  bodyExample: { locale: 'zh-CN' },
  response: { status: 200, description: 'The saved language.', schema: setLocaleResponse, example: { locale: 'zh-CN' } },
  errors: ['invalid_request'],
  async handle({ services, actor, body }) {
    return services.accountLocale.setLocale(actor, body.locale);
  },
});

export const accountLocaleOperations = [setMyLocale];
