import { z } from 'zod';

export const changeEmailRequest = z
  .object({
    email: z.email({ error: 'must be an email address' }).max(320).meta({ description: 'Your new address. It is only pending until you open the link mailed to it; your current address stays in force until then.' }),
  })
  .strict();

const pendingEmail = z
  .string()
  .nullable()
  .meta({ description: 'The address waiting for its verification link (valid 24 hours); it replaces `email` once the link is confirmed. null when none waits.' });

export const changeEmailResponse = z.object({
  email: z.string().nullable().meta({ description: 'Your current address, unchanged: it stays in force until the new one is confirmed.' }),
  emailVerified: z.boolean().meta({ description: 'Whether your current address is verified.' }),
  pendingEmail,
});

export const currentEmailResponse = z.object({
  email: z.string().nullable().meta({ description: 'Your address in force; null when none is set.' }),
  emailVerified: z.boolean().meta({ description: 'Whether the address is verified (`email_verified` in ID tokens). Reset links are mailed only to a verified address.' }),
  pendingEmail,
  mailEnabled: z.boolean().meta({ description: 'Whether Sesame sends mail (SMTP_URL). Without it, `POST /account/email` is refused: ask an administrator to set your address.' }),
});
