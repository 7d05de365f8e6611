import { api, API_BASE } from '../../api/client';
import { ApiError, ClientErrorCodes, errorFromResponse } from '../../api/errors';

export interface SupportRequest {
  /** Where support should answer; the account's address when left empty. */
  email: string;
  subject: string;
  text: string;
  attachment: File | null;
}

export interface ContactOwnerRequest {
  receiverId: string;
  subject: string;
  text: string;
}

interface Team {
  id: string;
  ownerId: string;
  role: string;
  status: string;
}

const user = (userId: string) => `/users/${encodeURIComponent(userId)}`;

/**
 * `POST /users/{id}/support/` as multipart (email, subject, text, support_attachment). Sent with
 * XMLHttpRequest because fetch cannot report upload progress; `onProgress` hears the fraction sent.
 */
export const sendSupport = (userId: string, request: SupportRequest, onProgress: (fraction: number) => void, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const form = new FormData();
    if (request.email.trim()) form.set('email', request.email.trim());
    form.set('subject', request.subject);
    form.set('text', request.text);
    if (request.attachment) form.set('support_attachment', request.attachment, request.attachment.name);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${user(userId)}/support/`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        /* a plain-text answer is reported as it is */
      }
      reject(errorFromResponse(xhr.status, body, xhr.statusText));
    };
    xhr.onerror = () =>
      reject(new ApiError(navigator.onLine ? ClientErrorCodes.network : ClientErrorCodes.offline, navigator.onLine ? 'Network error' : 'You are offline'));
    xhr.ontimeout = () => reject(new ApiError(ClientErrorCodes.timeout, 'Timeout exceeded'));
    xhr.onabort = () => reject(new ApiError(ClientErrorCodes.aborted, 'Request cancelled'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });

/** `POST /users/{id}/emails/`: a member's message to the owner of their team or group. */
export const contactOwner = (userId: string, request: ContactOwnerRequest) => api.post<{ mailId: string }>(`${user(userId)}/emails/`, request);

/** The owner of the team this user has joined as a member, if any (their own team does not count). */
export const teamOwnerOf = async (userId: string): Promise<string | null> => {
  const teams = await api.get<Team[]>(`${user(userId)}/teams/`);
  return teams.find((t) => t.ownerId !== userId && t.status === 'open')?.ownerId ?? null;
};
