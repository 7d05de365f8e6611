import type { ClioRegion } from '@axel/domain';

export interface ClioGrant {
  readonly accessToken: string;
  readonly expiresAt: Date;
  readonly refreshToken: string;
}

export interface ClioMatter {
  readonly id: string;
  readonly displayNumber: string;
  readonly description: string;
}

/** Clio Manage's OAuth 2 (authorization code) and the parts of its v4 API the product uses. */
export interface ClioPort {
  authorizeUrl(region: ClioRegion, input: { state: string; redirectUri: string }): string;
  /** Throws `ClioRefusedError` when Clio refuses the code. */
  exchangeCode(region: ClioRegion, input: { code: string; redirectUri: string }): Promise<ClioGrant>;
  refresh(region: ClioRegion, refreshToken: string): Promise<{ accessToken: string; expiresAt: Date; refreshToken: string | null }>;
  deauthorize(region: ClioRegion, accessToken: string): Promise<void>;
  whoAmI(region: ClioRegion, accessToken: string): Promise<{ id: string; name: string }>;
  matters(region: ClioRegion, accessToken: string, query: string | undefined): Promise<ClioMatter[]>;
  /**
   * Files bytes as a new document of a matter, Clio's three steps: create the document (its first
   * version answers an upload URL and headers), PUT the bytes there, mark the version fully uploaded.
   */
  fileDocument(
    region: ClioRegion,
    accessToken: string,
    input: { matterId: string; name: string; bytes: Buffer; contentType: string },
  ): Promise<{ documentId: string }>;
  /** A note on the matter (the hashes of a filed certificate, readable in Clio itself). */
  addNote(region: ClioRegion, accessToken: string, input: { matterId: string; subject: string; detail: string }): Promise<void>;
}

export class ClioRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`Clio refused the grant: ${reason}`);
    this.name = 'ClioRefusedError';
  }
}

/** Clio answered 404 for the matter, or another refusal with its status. */
export class ClioAnswerError extends Error {
  constructor(
    readonly status: number,
    what: string,
  ) {
    super(`Clio answered ${status} to ${what}`);
    this.name = 'ClioAnswerError';
  }
}
