import type { Factor } from './api/types.ts';
import { t } from './i18n.ts';

/** A factor's name as the person reads it: the recovery-code set is named in the console's language, the others as their owner named them. */
export const factorName = (factor: Pick<Factor, 'type' | 'name' | 'unusedCodes'>): string =>
  factor.type === 'recovery_codes' && factor.unusedCodes !== undefined ? t('console.accountFactors.recoveryCodesName', { count: factor.unusedCodes }) : factor.name;
