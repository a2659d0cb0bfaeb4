import { LOCALE_NAMES } from '../../../src/i18n/catalogues.ts';
import { isLocale, LOCALES } from '../../../src/i18n/locales.ts';
import { chooseLocale, t, useLocale } from '../i18n.ts';

/** A labelled list of the languages, each named in itself; choosing one applies it at once (and saves it when signed in). */
export function LanguageSwitcher({ signedIn }: { signedIn: boolean }) {
  const locale = useLocale();
  return (
    <label class="language-switcher">
      <span class="visually-hidden">{t('console.language')}</span>
      <select
        class="language-select"
        value={locale}
        onChange={(event) => {
          const value = (event.target as HTMLSelectElement).value;
          if (isLocale(value)) void chooseLocale(value, signedIn).catch(() => undefined);
        }}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LOCALE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
