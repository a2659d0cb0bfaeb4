import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import type { MfaPolicy, SecuritySettings } from '../../domain/mfa-policy.ts';
import { versionConflictText } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import { writeAudit } from './audit.ts';
import { requireAdmin } from './caller-checks.ts';
import type { ServiceDeps } from './deps.ts';

const requireSettingsAdmin = (actor: Actor) => requireAdmin(actor, said`Only administrators see and change the instance settings (${see('getSettings')} and ${see('updateSettings')}); ask an administrator to make this change.`);

/** The instance's sign-in policy (who must use a second factor). */
export function createSecuritySettingsService({ store, clock }: ServiceDeps) {
  return {
    async getSettings(actor: Actor): Promise<SecuritySettings> {
      requireSettingsAdmin(actor);
      return store.repos.securitySettings.get();
    },

    async updateSettings(actor: Actor, input: { mfaRequired: MfaPolicy; expectedSettingsVersion: number }): Promise<SecuritySettings> {
      requireSettingsAdmin(actor);
      return store.transaction(async (repos) => {
        const before = await repos.securitySettings.get();
        if (!(await repos.securitySettings.updateIfVersion(input.expectedSettingsVersion, input.mfaRequired, clock.now()))) {
          throw new AppError('version_conflict', versionConflictText('settings'));
        }
        const after = await repos.securitySettings.get();
        await writeAudit(repos, clock, actor, { action: 'settings.update', targetType: 'settings', targetId: 'instance', before: { mfaRequired: before.mfaRequired }, after: { mfaRequired: after.mfaRequired } });
        return after;
      });
    },
  };
}
