import type { Actor } from '../../domain/actor.ts';
import type { Locale } from '../../i18n/locales.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';

/** The person's own language preference: pages where Sesame knows them, and every mail to them, use it. */
export function createAccountLocaleService({ store, clock }: ServiceDeps) {
  return {
    /** Saves (or, with null, clears) the caller's language; audited. */
    async setLocale(actor: Actor, locale: Locale | null): Promise<{ locale: Locale | null }> {
      const subjectId = actor.subjectId;
      if (!subjectId) throw new AppError('login_required', 'Sign in as a person first: the language is saved on your own account.');
      return store.transaction(async (repos) => {
        const before = await repos.users.findBySubjectId(subjectId);
        if (!before) throw new AppError('login_required', 'Sign in again: this session\'s account no longer exists.');
        const previous = before.locale ?? null;
        if (previous === locale) return { locale };
        await repos.users.update(subjectId, { locale }, clock.now());
        await writeAudit(repos, clock, actor, { action: 'account.locale_change', targetType: 'user', targetId: subjectId, before: { locale: previous }, after: { locale } });
        return { locale };
      });
    },
  };
}

export type AccountLocaleService = ReturnType<typeof createAccountLocaleService>;
