import { z } from 'zod';
import { LOCALES } from '../../i18n/locales.ts';

const locale = z.enum(LOCALES);

export const setLocaleRequest = z
  .object({
    locale: locale.nullable().meta({
      description: 'Your language for Sesame\'s pages, the console and the mail Sesame sends you: `en` or `zh-CN`. null forgets the choice (then your browser\'s languages decide, else English).',
    }),
  })
  .strict();

export const setLocaleResponse = z.object({ locale: locale.nullable() });
