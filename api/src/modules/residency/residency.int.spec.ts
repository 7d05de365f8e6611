import { describe, expect, it } from 'vitest';
import { accountHelpers } from '../../testing/accounts';
import { useTestApp } from '../../testing/harness';

const t = useTestApp();
const { signedInUser } = accountHelpers(t);

describe('account region', () => {
  it('is automatic until the owner chooses one of the spec regions; it applies to new uploads', async () => {
    const u = await signedInUser();
    const first = await u.http.get(`/api/users/${u.id}/region`);
    expect(first.body).toMatchObject({ region: 'automatic', regions: ['automatic', 'us', 'eu', 'asia', 'africa'], appliesTo: 'new-uploads' });
    const chosen = await u.http.put(`/api/users/${u.id}/region`, { region: 'EU' });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body).toMatchObject({ region: 'eu', effectiveRegion: 'eu' });
    expect((await u.http.get(`/api/users/${u.id}/region`)).body.region).toBe('eu');
    const refused = await u.http.put(`/api/users/${u.id}/region`, { region: 'mars' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('REGION_INVALID');
    const other = await signedInUser();
    expect((await other.http.put(`/api/users/${u.id}/region`, { region: 'us' })).status).toBe(403);
  });
});
