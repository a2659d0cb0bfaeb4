import { z } from 'zod';

export const changeEmailRequest = z
  .object({
    email: z.email({ error: 'must be an email address' }).max(320).meta({ description: 'Your new address. It stays unverified (`email_verified: false`) until you open the link mailed to it.' }),
  })
  .strict();

export const changeEmailResponse = z.object({
  email: z.string(),
  emailVerified: z.boolean().meta({ description: 'false until the link mailed to the address is confirmed; true only when you sent your current, already verified address.' }),
});

export const currentEmailResponse = z.object({
  email: z.string().nullable().meta({ description: 'Your address; null when none is set.' }),
  emailVerified: z.boolean().meta({ description: 'Whether the address is verified (`email_verified` in ID tokens).' }),
  mailEnabled: z.boolean().meta({ description: 'Whether Sesame sends mail (SMTP_URL). Without it, `POST /account/email` is refused: ask an administrator to set your address.' }),
});
