import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { SignUpRequest } from './signup.machine';

export const signupApi = {
  signUp: (request: SignUpRequest) => api.post<{ id: string; email: string }>('/users/', request),
  resend: (email: string) => api.post<void>('/email-confirmations/resend', { email }),
  confirmEmail: (token: string) => api.post<{ email: string }>('/email-confirmations/', { token }),
};

export const signupActors = {
  signUp: fromPromise<{ id: string; email: string }, SignUpRequest>(({ input }) => signupApi.signUp(input)),
  resend: fromPromise<void, { email: string }>(({ input }) => signupApi.resend(input.email)),
};
