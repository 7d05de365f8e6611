import { useEffect } from 'react';
import { toApiError } from '../../api/errors';
import { noticeStore } from '../../session/notices';
import { membersApi, pendingInvite } from './members.api';

/**
 * An invite link (`?invite=` on sign-in or sign-up, spec §2) is kept until someone is signed in,
 * then accepted once: the person hears that they joined, or why they could not.
 */
export const usePendingInvite = (userId: string | null, search: string) => {
  useEffect(() => {
    const token = new URLSearchParams(search).get('invite');
    if (token) pendingInvite.keep(token);
    if (!userId) return;
    const kept = pendingInvite.take();
    if (!kept) return;
    membersApi.accept(kept).then(
      () => noticeStore.push({ severity: 'success', key: 'members.joined' }),
      (e: unknown) => {
        const error = toApiError(e);
        noticeStore.push({ severity: 'error', key: `errors.${error.code}`, values: { defaultValue: error.message } });
      },
    );
  }, [userId, search]);
};
