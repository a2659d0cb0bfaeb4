import { Link } from '../components/link.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { t } from '../i18n.ts';

export function NotFoundPage({ what = t('console.notFound.page') }: { what?: string }) {
  return (
    <>
      <PageHeader title={t('console.notFound.title', { what })} />
      <p>{t('console.notFound.text')}</p>
      <p>
        <Link to="/">{t('console.notFound.back')}</Link>
      </p>
    </>
  );
}
