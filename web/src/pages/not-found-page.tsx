import { Link } from '../components/link.tsx';
import { PageHeader } from '../components/page-header.tsx';

export function NotFoundPage({ what = 'page' }: { what?: string }) {
  return (
    <>
      <PageHeader title={`No such ${what}`} />
      <p>It does not exist, or you are not a member of the project it belongs to.</p>
      <p>
        <Link to="/">Back to your projects</Link>
      </p>
    </>
  );
}
