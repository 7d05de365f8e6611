import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { EsignListPage } from './EsignListPage';
import { EsignPlanGate } from './EsignPlanGate';
import { PackagePrepareStep } from './PackagePrepareStep';
import { PackagePreviewStep, PackageViewPage } from './PackageSummary';
import { PackageUploadStep } from './PackageUploadStep';

export type EsignScreen =
  | { kind: 'list'; view: 'list' | 'drafts' | 'archive' }
  | { kind: 'upload'; packageId?: string }
  | { kind: 'prepare'; packageId: string; readOnly: boolean }
  | { kind: 'preview'; packageId: string }
  | { kind: 'view'; packageId: string }
  | { kind: 'missing' };

/** Which owner screen an `/esigns/...` address shows; steps 2 and 3 of a new package name it by `?id=`. */
export const esignScreenOf = (pathname: string, packageId: string | undefined, queryId: string | null): EsignScreen => {
  const parts = pathname.toLowerCase().replace(/\/+$/, '').split('/').filter(Boolean).slice(1);
  const [first, second] = parts;
  if (first === 'list' || first === 'drafts' || first === 'archive') return { kind: 'list', view: first };
  if (first === 'package') {
    if (second === 'upload') return { kind: 'upload' };
    if (!queryId) return { kind: 'missing' };
    if (second === 'prepare') return { kind: 'prepare', packageId: queryId, readOnly: false };
    if (second === 'preview') return { kind: 'preview', packageId: queryId };
  }
  if (first === 'preview') return packageId ? { kind: 'preview', packageId } : queryId ? { kind: 'preview', packageId: queryId } : { kind: 'missing' };
  if (!packageId) return { kind: 'missing' };
  if (first === 'edit') return second === '1' ? { kind: 'upload', packageId } : { kind: 'prepare', packageId, readOnly: false };
  if (first === 'view') return second === '1' ? { kind: 'view', packageId } : { kind: 'prepare', packageId, readOnly: true };
  return { kind: 'missing' };
};

const Screen = ({ screen }: { screen: EsignScreen }) => {
  const { t } = useTranslation();
  switch (screen.kind) {
    case 'list':
      return <EsignListPage view={screen.view} />;
    case 'upload':
      return <PackageUploadStep key={screen.packageId ?? 'new'} packageId={screen.packageId} />;
    case 'prepare':
      return <PackagePrepareStep key={screen.packageId} packageId={screen.packageId} readOnly={screen.readOnly} />;
    case 'preview':
      return <PackagePreviewStep key={screen.packageId} packageId={screen.packageId} />;
    case 'view':
      return <PackageViewPage key={screen.packageId} packageId={screen.packageId} />;
    case 'missing':
      return (
        <Container maxWidth="sm" sx={{ py: 3 }}>
          <Alert severity="warning">{t('errors.ESIGN_PACKAGE_NOT_FOUND')}</Alert>
        </Container>
      );
  }
};

/** The owner's e-sign screens under `/esigns/...`, for plans with eSign. */
export const EsignPage = () => {
  const { pathname } = useLocation();
  const { packageId } = useParams();
  const [query] = useSearchParams();
  return (
    <EsignPlanGate>
      <Screen screen={esignScreenOf(pathname, packageId, query.get('id'))} />
    </EsignPlanGate>
  );
};
