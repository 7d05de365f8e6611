import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { SetPasswordRequest } from './password-reset.machine';

export const passwordResetActors = {
  checkLink: fromPromise<void, { token: string }>(({ input }) => api.get<void>(`/password-resets/${encodeURIComponent(input.token)}`)),
  requestReset: fromPromise<void, { email: string }>(({ input }) => api.post<void>('/password-resets/', { email: input.email })),
  setPassword: fromPromise<void, SetPasswordRequest>(({ input }) =>
    api.post<void>(`/password-resets/${encodeURIComponent(input.token)}`, {
      password: input.password,
      passwordConfirmation: input.passwordConfirmation,
    }),
  ),
};
