import { z } from 'zod';

export const changeEmailRequest = z
  .object({
    email: z.email({ error: 'must be an email address' }).max(320).meta({ description: 'Your new address. It stays unverified (`email_verified: false`) until you open the link mailed to it.' }),
  })
  .strict();
