import Check from '@mui/icons-material/Check';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { BillingCycle, Product } from './billing.types';
import { isSellable } from './checkout.machine';
import { formatMoney, formatStorage, yearlySavingPercent } from './money';
import { includedLines } from './plan-includes';

export const CycleToggle = ({ cycle, onChange }: { cycle: BillingCycle; onChange: (cycle: BillingCycle) => void }) => {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={cycle}
      onChange={(_, value: BillingCycle | null) => value && onChange(value)}
      aria-label={t('billing.plans.cycle')}
      data-testid="plans-cycle"
    >
      <ToggleButton value="monthly" data-testid="plans-cycle-monthly">
        {t('billing.plans.monthly')}
      </ToggleButton>
      <ToggleButton value="yearly" data-testid="plans-cycle-yearly">
        {t('billing.plans.yearly')}
      </ToggleButton>
    </ToggleButtonGroup>
  );
};

/** A plan's storage for ordering: a plan without a quota is unlimited, so it comes last. */
const storageOf = (p: Product) => p.quotaBytes ?? Number.POSITIVE_INFINITY;

/**
 * The plans to show for a cycle: sellable plans of that cycle, smallest storage first, then cheapest
 * (then by weight); `above` keeps only heavier ones.
 */
export const plansFor = (products: readonly Product[], cycle: BillingCycle, above?: number | null): Product[] =>
  products
    .filter((p) => isSellable(p) && (p.cycle === cycle || p.cycle === null) && (above === undefined || above === null || p.weight > above))
    .sort((a, b) => storageOf(a) - storageOf(b) || a.price - b.price || a.weight - b.weight);

const monthlyTwin = (products: readonly Product[], yearly: Product) => products.find((p) => p.cycle === 'monthly' && p.name === yearly.name && isSellable(p));

export const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

export const PlanGrid = ({
  products,
  cycle,
  currentProductId,
  currentName,
  onChoose,
  above,
}: {
  products: readonly Product[];
  cycle: BillingCycle;
  currentProductId: number | null;
  currentName: string | null;
  onChoose: (product: Product) => void;
  above?: number | null;
}) => {
  const { t, i18n } = useTranslation();
  const shown = plansFor(products, cycle, above);
  if (shown.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="plans-none">
        {t('billing.plans.none')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' } }} data-testid="plans-grid">
      {shown.map((p) => {
        const current = p.id === currentProductId || (currentProductId === null && currentName !== null && p.name === currentName);
        const twin = cycle === 'yearly' ? monthlyTwin(products, p) : undefined;
        const saving = twin ? yearlySavingPercent(twin.price, p.price) : 0;
        return (
          <Card key={p.id} variant="outlined" data-testid={`plan-${slug(p.name)}`} sx={current ? { borderColor: 'primary.main' } : undefined}>
            <CardContent>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
                <Typography variant="h6" component="h2">
                  {p.name}
                </Typography>
                {current && <Chip size="small" color="primary" icon={<CheckCircleOutline />} label={t('billing.plans.current')} />}
              </Box>
              <Typography variant="h5" component="p" data-testid={`plan-price-${slug(p.name)}`}>
                {formatMoney(p.price, p.currency, i18n.language)}
                <Typography component="span" color="text.secondary">
                  {' '}
                  {t(cycle === 'yearly' ? 'billing.plans.perYear' : 'billing.plans.perMonth')}
                </Typography>
              </Typography>
              {saving > 0 && (
                <Typography variant="body2" color="success.main">
                  {t('billing.plans.saving', { percent: saving })}
                </Typography>
              )}
              {p.quotaBytes !== null && (
                <Typography sx={{ mt: 1 }} data-testid={`plan-storage-${slug(p.name)}`}>
                  {t('billing.plans.storage', { size: formatStorage(p.quotaBytes, i18n.language) })}
                </Typography>
              )}
              {p.includes && (
                <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }} data-testid={`plan-includes-${slug(p.name)}`}>
                  {includedLines(p.includes).map((line) => (
                    <Typography component="li" variant="body2" key={line.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', py: 0.25 }}>
                      <Check fontSize="small" color="success" aria-hidden />
                      {t(`billing.plans.includes.${line.key}`, {
                        ...(line.count === undefined ? {} : { count: line.count }),
                        ...(line.bytes === undefined ? {} : { size: formatStorage(line.bytes, i18n.language) }),
                        ...(line.mebibytes === undefined ? {} : { mebibytes: line.mebibytes }),
                      })}
                    </Typography>
                  ))}
                </Box>
              )}
            </CardContent>
            <CardActions>
              <Button variant={current ? 'outlined' : 'contained'} disabled={current} onClick={() => onChoose(p)} data-testid={`plan-choose-${slug(p.name)}`}>
                {t(current ? 'billing.plans.current' : 'billing.plans.choose')}
              </Button>
            </CardActions>
          </Card>
        );
      })}
    </Box>
  );
};
