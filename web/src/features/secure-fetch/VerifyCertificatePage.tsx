import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { formatDateTime } from '../../components/i18nHelpers';
import { hashFile } from './hashing';
import { HASH_NAMES } from './hashing.core';
import {
  certificateIntact,
  chainAnchor,
  readCertificate,
  verifyFile,
  type AnchorTransaction,
  type Certificate,
  type ChainAnchor,
  type FileVerdict,
} from './verify';

type Loaded = { certificate: Certificate; raw: Record<string, unknown>; fileName: string; intact: boolean | null };

/** The certificate's transaction from the public explorer: what it timestamps, and how deep it is. */
const anchorOf = async (certificate: Certificate, intact: boolean | null): Promise<ChainAnchor> => {
  if (!certificate.txId) return { kind: 'unknown' };
  try {
    return chainAnchor(certificate, await api.get<AnchorTransaction>(`/wallet/v1/explorer/transactions/${encodeURIComponent(certificate.txId)}`), intact);
  } catch {
    return { kind: 'unknown' };
  }
};

/**
 * The public verify page, /verify-certificate: a certificate JSON and a file are chosen, the file
 * is hashed in the browser (nothing is uploaded), and the page says whether it is the certified
 * file, or which hash differs.
 */
export const VerifyCertificatePage = () => {
  const { t, i18n } = useTranslation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [anchor, setAnchor] = useState<ChainAnchor | null>(null);
  const [certificateProblem, setCertificateProblem] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<FileVerdict | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const certificateInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const check = async (certificate: Loaded | null, chosen: File | null) => {
    setVerdict(null);
    setFailure(null);
    if (!certificate || !chosen) return;
    setProgress(0);
    try {
      const hashes = await hashFile(chosen, (bytes) => setProgress(chosen.size ? Math.floor((bytes / chosen.size) * 100) : 100));
      setVerdict(verifyFile(certificate.certificate, chosen, hashes));
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
    }
  };

  const chooseCertificate = async (chosen: File | undefined) => {
    if (!chosen) return;
    const read = readCertificate(await chosen.text());
    if (!read.ok) {
      setLoaded(null);
      setVerdict(null);
      setCertificateProblem(read.reason);
      return;
    }
    setCertificateProblem(null);
    const next = { certificate: read.certificate, raw: read.raw, fileName: chosen.name, intact: await certificateIntact(read.raw) };
    setLoaded(next);
    setAnchor(null);
    void anchorOf(read.certificate, next.intact).then(setAnchor);
    await check(next, file);
  };

  const chooseFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    await check(loaded, chosen);
  };

  return (
    <Container maxWidth="md" sx={{ py: 4 }} data-testid="verify-page">
      <Stack spacing={3}>
        <Typography variant="h5" component="h1">
          {t('secureFetch.verify.title')}
        </Typography>
        <Typography color="text.secondary">{t('secureFetch.verify.intro')}</Typography>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
              <Button variant="outlined" onClick={() => certificateInput.current?.click()} data-testid="verify-choose-certificate">
                {t('secureFetch.verify.chooseCertificate')}
              </Button>
              <Typography variant="body2" data-testid="verify-certificate-name">
                {loaded?.fileName ?? t('secureFetch.verify.noneChosen')}
              </Typography>
              <input
                ref={certificateInput}
                type="file"
                accept="application/json,.json"
                hidden
                data-testid="verify-certificate-input"
                onChange={(e) => void chooseCertificate(e.target.files?.[0])}
              />
            </Box>
            {certificateProblem && (
              <Alert severity="error" data-testid="verify-certificate-problem">
                {t(`secureFetch.verify.certificateProblem.${certificateProblem}`)}
              </Alert>
            )}
            {loaded && (
              <Alert
                severity={loaded.intact === false || anchor?.kind === 'differs' ? 'error' : 'info'}
                data-testid="verify-certificate-summary"
                data-intact={String(loaded.intact)}
              >
                {t('secureFetch.verify.certificateSummary', {
                  count: loaded.certificate.files.length,
                  issuedAt: loaded.certificate.issuedAt ? formatDateTime(loaded.certificate.issuedAt, i18n.language) : '—',
                })}{' '}
                {loaded.intact === true ? t('secureFetch.verify.intact') : loaded.intact === false ? t('secureFetch.verify.altered') : ''}
                {loaded.certificate.txId && (
                  <Typography variant="caption" component="div" sx={{ wordBreak: 'break-all' }}>
                    {t('secureFetch.verify.txId', { txId: loaded.certificate.txId })}
                  </Typography>
                )}
                {anchor && (
                  <Typography variant="body2" component="div" data-testid="verify-chain" data-anchor={anchor.kind}>
                    {t(`secureFetch.verify.chain.${anchor.kind}`, { count: anchor.kind === 'anchored' ? anchor.confirmations : 0 })}
                  </Typography>
                )}
              </Alert>
            )}
            <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
              <Button variant="outlined" onClick={() => fileInput.current?.click()} data-testid="verify-choose-file">
                {t('secureFetch.verify.chooseFile')}
              </Button>
              <Typography variant="body2" data-testid="verify-file-name">
                {file?.name ?? t('secureFetch.verify.noneChosen')}
              </Typography>
              <input ref={fileInput} type="file" hidden data-testid="verify-file-input" onChange={(e) => void chooseFile(e.target.files?.[0])} />
            </Box>
          </Stack>
        </Paper>
        {progress !== null && (
          <Box>
            <Typography variant="body2">{t('secureFetch.verify.hashing', { percent: progress })}</Typography>
            <LinearProgress variant="determinate" value={progress} />
          </Box>
        )}
        {failure && <Alert severity="error">{failure}</Alert>}
        {verdict && (
          <Stack spacing={2} data-testid="verify-result" data-verdict={verdict.kind}>
            <Alert severity={verdict.kind === 'match' ? 'success' : 'error'} data-testid="verify-verdict">
              {verdict.kind === 'notInCertificate'
                ? t('secureFetch.verify.notInCertificate')
                : verdict.kind === 'match'
                  ? t('secureFetch.verify.match', { name: verdict.entry.name })
                  : t('secureFetch.verify.mismatch', { name: verdict.entry.name })}
            </Alert>
            {verdict.kind !== 'notInCertificate' && (
              <Table size="small" data-testid="verify-hashes">
                <TableBody>
                  {HASH_NAMES.map((name) => (
                    <TableRow key={name} data-testid={`verify-hash-${name}`} data-verdict={verdict.hashes[name]}>
                      <TableCell>{t(`secureFetch.hashes.${name}`)}</TableCell>
                      <TableCell>{t(`secureFetch.verify.hashVerdict.${verdict.hashes[name]}`)}</TableCell>
                    </TableRow>
                  ))}
                  <TableRow data-testid="verify-size" data-verdict={String(verdict.sizeMatches)}>
                    <TableCell>{t('secureFetch.verify.size')}</TableCell>
                    <TableCell>
                      {verdict.sizeMatches === null
                        ? t('secureFetch.verify.hashVerdict.notShown')
                        : verdict.sizeMatches
                          ? t('secureFetch.verify.hashVerdict.match')
                          : t('secureFetch.verify.hashVerdict.differs')}
                    </TableCell>
                  </TableRow>
                </TableBody>
              </Table>
            )}
          </Stack>
        )}
      </Stack>
    </Container>
  );
};
