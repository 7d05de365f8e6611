import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { SetPasswordRequest } from './password-reset.machine';

export const passwordResetActors = {
  requestReset: fromPromise<void, { email: string }>(({ input }) => api.post<void>('/password-resets/', { email: input.email })),
  setPassword: fromPromise<void, SetPasswordRequest>(({ input }) =>
    api.post<void>(`/password-resets/${encodeURIComponent(input.token)}`, {
      password: input.password,
      passwordConfirmation: input.passwordConfirmation,
    }),
  ),
};
