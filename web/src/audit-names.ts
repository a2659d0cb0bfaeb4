import { tIfKnown } from './i18n.ts';

/** Every action the audit trails record, for the action filter; the catalogues name each (`console.auditAction.<action>`). */
export const AUDIT_ACTIONS = [
  'account.consent_revoke',
  'account.factor_add',
  'account.factor_remove',
  'account.factor_start',
  'account.locale_change',
  'account.password_change',
  'account.recovery_code_used',
  'account.recovery_codes_new',
  'account.session_end',
  'assistant.connect',
  'assistant.grant_end_reuse',
  'assistant_grant.revoke',
  'client.create',
  'client.delete',
  'client.disable',
  'client.enable',
  'client.import',
  'client.revise',
  'client.revoke_tokens',
  'client.secret_revoke',
  'client.secret_rotate',
  'client.update',
  'group.create',
  'group.update',
  'group.delete',
  'group.member_add',
  'group.member_remove',
  'identity.link',
  'identity.unlink',
  'identity_provider.create',
  'identity_provider.delete',
  'identity_provider.import',
  'identity_provider.update',
  'member.add',
  'member.change_role',
  'member.remove',
  'member.transfer_ownership',
  'project.archive',
  'project.create',
  'project.delete',
  'project.unarchive',
  'project.update',
  'sesame_interaction',
  'session.login',
  'session.logout',
  'settings.update',
  'signing_key.create',
  'signing_key.rotate',
  'user.create',
  'user.email_change',
  'user.email_verify',
  'user.factors_reset',
  'user.invitation_accept',
  'user.password_reset',
  'user.password_reset_by_link',
  'user.password_reset_request',
  'user.update',
] as const;

/** An action's name in the console's language; an action this console does not know yet shows as its code. */
export const actionName = (action: string): string => tIfKnown(`console.auditAction.${action}`) ?? action;

/** Where a change came from, in the console's language. */
export const surfaceName = (surface: string): string => tIfKnown(`console.auditSurface.${surface}`) ?? surface;

/** What kind of thing a change was made to, in the console's language. */
export const targetTypeName = (targetType: string): string => tIfKnown(`console.auditTarget.${targetType}`) ?? targetType;
