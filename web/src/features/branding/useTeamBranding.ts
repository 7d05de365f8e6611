import { useEffect, useState } from 'react';
import { useSession } from '../../session/store';
import { brandingApi, type TeamBranding } from './branding.api';

const listeners = new Set<() => void>();
/** Tells the header the team's branding changed (saved on the branding page). */
export const brandingChanged = () => {
  for (const l of listeners) l();
};

/** The branding of the signed-in person's team, for the header; nothing outside a team or on failure. */
export const useTeamBranding = (): Pick<TeamBranding, 'companyName' | 'logoUrl'> | null => {
  const { user } = useSession();
  const [branding, setBranding] = useState<Pick<TeamBranding, 'companyName' | 'logoUrl'> | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    const again = () => setRound((r) => r + 1);
    listeners.add(again);
    return () => {
      listeners.delete(again);
    };
  }, []);
  // `round` moves when the branding page saves: read again
  useEffect(() => {
    if (!user?.id) return setBranding(null);
    let live = true;
    brandingApi
      .mine(user.id)
      .then((b) => live && setBranding(b.companyName || b.logoUrl ? { companyName: b.companyName, logoUrl: b.logoUrl } : null))
      .catch(() => live && setBranding(null));
    return () => {
      live = false;
    };
  }, [user?.id, round]);
  return branding;
};
