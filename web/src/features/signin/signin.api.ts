import { fromPromise } from 'xstate';
import { api } from '../../api/client';
import type { SignInAnswer } from '../../api/types';
import type { SignInRequest } from './signin.machine';

export const signIn = (request: SignInRequest) => api.post<SignInAnswer>('/sessions/', request);

export const signinActors = {
  signIn: fromPromise<SignInAnswer, SignInRequest>(({ input }) => signIn(input)),
};
