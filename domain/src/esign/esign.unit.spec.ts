import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import type { EsignCommand } from './esign.commands';
import { esignPackageDecider } from './esign.decide';
import { EsignErrors } from './esign.errors';
import type { EsignEvent } from './esign.events';

const metadata = { now: new Date('2026-11-28T05:00:00Z') };
const cmd = <T extends EsignCommand['type']>(type: T, data: Extract<EsignCommand, { type: T }>['data']) => ({ type, data, metadata }) as EsignCommand;
const origin = { ip: '127.0.0.1', userAgent: 'test' };

const created: EsignEvent = { type: 'EsignPackageCreated', data: { packageId: 'p1', ownerId: 'u1', name: 'Lease', message: null } };
const entry: EsignEvent = { type: 'EsignEntryAdded', data: { entryId: 'e1', fileId: 'f1', name: 'lease.pdf', size: 100, sha256: 'aa', pageCount: 3 } };
const signer = (n: number, order: number | null = null): EsignEvent => ({
  type: 'EsignSignerAdded',
  data: { signerId: `s${n}`, linkId: `link-${n}`, name: `Signer ${n}`, email: `s${n}@example.com`, color: n, order },
});
const pin = (n: number, signerId: string): EsignEvent => ({
  type: 'EsignPinPlaced',
  data: { pinId: `pin${n}`, entryId: 'e1', signerId, kind: 'signature', page: 1, x: 0.1, y: 0.1, width: 0.2, height: 0.05 },
});
const sent: EsignEvent = { type: 'EsignPackageSent', data: { passwordHash: 'hash', sentAt: metadata.now.toISOString() } };
const signed = (signerId: string, pinIds: string[]): EsignEvent => ({
  type: 'EsignSignerSigned',
  data: { signerId, signatureType: 'typed', signatureValue: 'Me', pinIds, signedAt: metadata.now.toISOString(), ...origin },
});
const finished = (signerId: string): EsignEvent => ({ type: 'EsignSignerFinished', data: { signerId, finishedAt: metadata.now.toISOString(), ...origin } });
const ready = [created, entry, signer(1), signer(2), pin(1, 's1'), pin(2, 's2'), sent];
const seal = { documentSha256: 'dd', originalSha256: { e1: 'aa' } };

const given = DeciderSpecification.for(esignPackageDecider);

describe('e-sign packages: drafts', () => {
  it('starts as a draft with a name without special characters', () => {
    given([])
      .when(cmd('CreatePackage', { packageId: 'p1', ownerId: 'u1', name: ' Lease 2026 ', message: 'Please sign' }))
      .then([{ type: 'EsignPackageCreated', data: { packageId: 'p1', ownerId: 'u1', name: 'Lease 2026', message: 'Please sign' } }]);
    for (const name of ['Lease<script>', 'a/b', 'x*y', '', '   ', 'n'.repeat(256)]) {
      given([])
        .when(cmd('CreatePackage', { packageId: 'p1', ownerId: 'u1', name, message: null }))
        .thenThrows(EsignErrors.invalidName);
    }
    given([])
      .when(cmd('CreatePackage', { packageId: 'p1', ownerId: 'u1', name: 'Contrato de arrendamiento', message: null }))
      .thenState((s) => {
        expect(s.status).toBe('draft');
      });
  });

  it('takes PDFs only', () => {
    const add = (mime: string, pageCount = 2) => cmd('AddEntry', { entryId: 'e2', fileId: 'f2', name: 'x', mime, size: 1, sha256: 'bb', pageCount });
    given([created]).when(add('image/png')).thenThrows(EsignErrors.pdfOnly);
    given([created]).when(add('application/pdf', 0)).thenThrows(EsignErrors.pdfOnly);
    given([created])
      .when(add('application/pdf'))
      .then((events) => expect(events[0]!.type).toBe('EsignEntryAdded'));
  });

  it('keeps signer e-mails unique whatever the case, and colors from 1 to 10', () => {
    const add = (email: string, color = 3, signerId = 's9') => cmd('AddSigner', { signerId, linkId: 'l9', name: 'Nine', email, color, order: null });
    given([created, signer(1)])
      .when(add('S1@Example.com'))
      .thenThrows(EsignErrors.signerEmailExists, { signerId: 's1' });
    for (const color of [0, 11, 2.5]) given([created]).when(add('nine@example.com', color)).thenThrows(EsignErrors.invalidColor);
    given([created]).when(add('not-an-email')).thenThrows(EsignErrors.invalidEmail);
    given([created, signer(1)])
      .when(add('nine@example.com', 10))
      .thenState((s) => expect(Object.keys(s.signers)).toEqual(['s1', 's9']));
  });

  it('places fields inside a page of their document, for a signer of the package', () => {
    const place = (over: Partial<{ page: number; x: number; y: number; width: number; height: number; signerId: string; entryId: string }>) =>
      cmd('PlacePin', { pinId: 'pin9', entryId: 'e1', signerId: 's1', kind: 'date', page: 1, x: 0.5, y: 0.5, width: 0.2, height: 0.1, ...over });
    given([created, entry, signer(1)])
      .when(place({ page: 4 }))
      .thenThrows(EsignErrors.invalidPin, { pageCount: 3 });
    given([created, entry, signer(1)])
      .when(place({ x: 0.9, width: 0.2 }))
      .thenThrows(EsignErrors.invalidPin);
    given([created, entry, signer(1)])
      .when(place({ width: 0 }))
      .thenThrows(EsignErrors.invalidPin);
    given([created, entry, signer(1)])
      .when(place({ signerId: 's7' }))
      .thenThrows(EsignErrors.signerNotFound);
    given([created, entry, signer(1)])
      .when(place({ entryId: 'e7' }))
      .thenThrows(EsignErrors.entryNotFound);
    given([created, entry, signer(1)])
      .when(place({ page: 3 }))
      .then((events) => expect(events[0]!.type).toBe('EsignPinPlaced'));
  });

  it('is sent once it has a document, signers and a field for each signer; then it can no longer be edited', () => {
    given([created, entry, signer(1)])
      .when(cmd('SendPackage', { passwordHash: 'h' }))
      .thenThrows(EsignErrors.incomplete);
    given([created, signer(1), pin(1, 's1')])
      .when(cmd('SendPackage', { passwordHash: 'h' }))
      .thenThrows(EsignErrors.incomplete);
    given([created, entry, signer(1), pin(1, 's1')])
      .when(cmd('SendPackage', { passwordHash: 'h' }))
      .thenState((s) => expect(s.status).toBe('awaiting_signatures'));
    given(ready)
      .when(cmd('RemovePin', { pinId: 'pin1' }))
      .thenThrows(EsignErrors.notDraft);
  });

  it('removing a document or a signer removes their fields', () => {
    given([created, entry, signer(1), pin(1, 's1')])
      .when(cmd('RemoveEntry', { entryId: 'e1' }))
      .thenState((s) => expect(s.pins).toEqual({}));
    given([created, entry, signer(1), pin(1, 's1')])
      .when(cmd('RemoveSigner', { signerId: 's1' }))
      .thenState((s) => expect(s.pins).toEqual({}));
  });
});

describe('e-sign packages: signing', () => {
  const typed = { type: 'typed' as const, text: 'Signer One' };

  it('a signature fills every field of its signer', () => {
    given([...ready.slice(0, -1), pin(3, 's1'), sent])
      .when(cmd('Sign', { signerId: 's1', signature: typed, ...origin }))
      .thenState((s, events) => {
        expect(events[0]!.data).toMatchObject({ pinIds: ['pin1', 'pin3'], signatureValue: 'Signer One', ip: '127.0.0.1' });
        expect(s.pins.pin1!.filled && s.pins.pin3!.filled).toBe(true);
        expect(s.pins.pin2!.filled).toBe(false);
      });
  });

  it('takes a typed name or a drawn PNG', () => {
    given(ready)
      .when(cmd('Sign', { signerId: 's1', signature: { type: 'typed', text: '  ' }, ...origin }))
      .thenThrows(EsignErrors.invalidSignature);
    given(ready)
      .when(cmd('Sign', { signerId: 's1', signature: { type: 'drawn', image: 'data:image/jpeg;base64,AAAA' }, ...origin }))
      .thenThrows(EsignErrors.invalidSignature);
    given(ready)
      .when(cmd('Sign', { signerId: 's1', signature: { type: 'drawn', image: 'data:image/png;base64,iVBORw0KGgo=' }, ...origin }))
      .then((events) => expect(events[0]!.data).toMatchObject({ signatureType: 'drawn' }));
  });

  it('finishing needs a signature; the last finish completes the package, with its seal', () => {
    given(ready)
      .when(cmd('FinishSigning', { signerId: 's1', seal: null, ...origin }))
      .thenThrows(EsignErrors.notSigned);
    given([...ready, signed('s1', ['pin1'])])
      .when(cmd('FinishSigning', { signerId: 's1', seal: null, ...origin }))
      .thenState((s, events) => {
        expect(events.map((e) => e.type)).toEqual(['EsignSignerFinished']);
        expect(s.status).toBe('awaiting_signatures');
      });
    const oneLeft = [...ready, signed('s1', ['pin1']), finished('s1'), signed('s2', ['pin2'])];
    given(oneLeft)
      .when(cmd('FinishSigning', { signerId: 's2', seal: null, ...origin }))
      .thenThrows(EsignErrors.sealRequired);
    given(oneLeft)
      .when(cmd('FinishSigning', { signerId: 's2', seal, ...origin }))
      .thenState((s, events) => {
        expect(events.map((e) => e.type)).toEqual(['EsignSignerFinished', 'EsignPackageCompleted']);
        expect(s.status).toBe('completed');
        expect(s.documentSha256).toBe('dd');
      });
  });

  it('a signer who finished sees the already-signed state; nobody signs a completed or archived package', () => {
    given([...ready, signed('s1', ['pin1']), finished('s1')])
      .when(cmd('Sign', { signerId: 's1', signature: typed, ...origin }))
      .thenThrows(EsignErrors.alreadySigned);
    const done = [
      ...ready,
      signed('s1', ['pin1']),
      finished('s1'),
      signed('s2', ['pin2']),
      finished('s2'),
      { type: 'EsignPackageCompleted', data: { completedAt: 'x', ...seal } } as EsignEvent,
    ];
    given(done)
      .when(cmd('Sign', { signerId: 's2', signature: typed, ...origin }))
      .thenThrows(EsignErrors.completed);
    given([...ready, { type: 'EsignPackageArchived', data: { at: 'x' } }])
      .when(cmd('Sign', { signerId: 's1', signature: typed, ...origin }))
      .thenThrows(EsignErrors.archived);
    given([created, entry])
      .when(cmd('Sign', { signerId: 's1', signature: typed, ...origin }))
      .thenThrows(EsignErrors.notAwaiting);
    given(ready)
      .when(cmd('Sign', { signerId: 's7', signature: typed, ...origin }))
      .thenThrows(EsignErrors.signerNotFound);
  });

  it('with a signing order, a signer waits until those before have finished', () => {
    const ordered = [created, entry, signer(1, 1), signer(2, 2), pin(1, 's1'), pin(2, 's2'), sent];
    given(ordered)
      .when(cmd('Sign', { signerId: 's2', signature: typed, ...origin }))
      .thenThrows(EsignErrors.notYourTurn);
    given([...ordered, signed('s1', ['pin1']), finished('s1')])
      .when(cmd('Sign', { signerId: 's2', signature: typed, ...origin }))
      .then((events) => expect(events[0]!.type).toBe('EsignSignerSigned'));
  });

  it('archives and unarchives back to where it was', () => {
    given([...ready, { type: 'EsignPackageArchived', data: { at: 'x' } }])
      .when(cmd('UnarchivePackage', {}))
      .thenState((s) => expect(s.status).toBe('awaiting_signatures'));
    given(ready).when(cmd('UnarchivePackage', {})).thenThrows(EsignErrors.notArchived);
    given([created, { type: 'EsignPackageDeleted', data: { at: 'x' } }])
      .when(cmd('ArchivePackage', {}))
      .thenThrows(EsignErrors.packageNotFound);
  });
});
