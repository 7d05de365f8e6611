import { describe, expect, it } from 'vitest';
import { DeciderSpecification } from '../shared/decider.testing';
import { CommonErrors } from '../shared/errors';
import type { IpfsPinCommand } from './ipfs.commands';
import { ipfsPinDecider } from './ipfs.decide';
import { IpfsErrors } from './ipfs.errors';
import type { IpfsPinEvent } from './ipfs.events';
import { ipfsGatewayLink, normaliseIpfsGateway } from './ipfs.gateway';
import { ipfsSettingsDecider } from './ipfs.settings';

const metadata = { now: new Date('2026-11-01T00:00:00Z') };
const cmd = <T extends IpfsPinCommand['type']>(type: T, data: Extract<IpfsPinCommand, { type: T }>['data']) => ({ type, data, metadata }) as IpfsPinCommand;
const source = { kind: 'secure-fetch' as const, fetchId: 'f1', itemId: 'i1', storageId: 's1' };
const request = { pinId: 'p1', ownerId: 'u1', source, size: 10, txId: 'tx1', service: 'embedded' };
const requested: IpfsPinEvent = { type: 'IpfsPinRequested', data: request };
const started: IpfsPinEvent = { type: 'IpfsPinStarted', data: { attempt: 1 } };
const pinned: IpfsPinEvent = { type: 'IpfsPinPinned', data: { cid: 'bafkreiroot', blocks: 1, dagSize: 10 } };
const failed: IpfsPinEvent = { type: 'IpfsPinFailed', data: { reason: 'unreachable' } };

const given = DeciderSpecification.for(ipfsPinDecider);

describe('IPFS pins', () => {
  it('a paid file is queued, then pinning, then pinned with its root CID', () => {
    given([]).when(cmd('RequestPin', request)).then([requested]);
    given([requested]).when(cmd('StartPin', {})).then([started]);
    given([requested, started])
      .when(cmd('CompletePin', { cid: 'bafkreiroot', blocks: 1, dagSize: 10 }))
      .then([pinned]);
  });

  it('asking again for the same payment changes nothing; another payment of the same pin is a conflict', () => {
    given([requested]).when(cmd('RequestPin', request)).then([]);
    given([requested, started, pinned]).when(cmd('RequestPin', request)).then([]);
    given([requested])
      .when(cmd('RequestPin', { ...request, txId: 'tx2' }))
      .thenThrows(CommonErrors.conflict);
    given([requested, started, pinned])
      .when(cmd('CompletePin', { cid: 'bafkreiroot', blocks: 1, dagSize: 10 }))
      .then([]);
  });

  it('a failed pin is retried by staff (queued again, a new attempt); only a failed one', () => {
    given([requested, started])
      .when(cmd('FailPin', { reason: '  connection refused ' }))
      .then([{ type: 'IpfsPinFailed', data: { reason: 'connection refused' } }]);
    given([requested, started, failed])
      .when(cmd('RetryPin', {}))
      .then([{ type: 'IpfsPinRetried', data: {} }]);
    given([requested, started, failed, { type: 'IpfsPinRetried', data: {} }])
      .when(cmd('StartPin', {}))
      .then([{ type: 'IpfsPinStarted', data: { attempt: 2 } }]);
    given([requested, started, pinned]).when(cmd('RetryPin', {})).thenThrows(IpfsErrors.notFailed);
    given([requested])
      .when(cmd('FailPin', { reason: 'x' }))
      .thenThrows(IpfsErrors.notPinning);
    given([requested, started, pinned]).when(cmd('StartPin', {})).thenThrows(IpfsErrors.notPinning);
  });

  it('staff unpin with a reason, once; an unpinned pin is not pinned again', () => {
    given([requested, started, pinned])
      .when(cmd('RemovePin', { reason: ' Court order ' }))
      .then([{ type: 'IpfsPinRemoved', data: { reason: 'Court order' } }]);
    given([requested, started, failed])
      .when(cmd('RemovePin', { reason: 'gave up' }))
      .then([{ type: 'IpfsPinRemoved', data: { reason: 'gave up' } }]);
    given([requested, started, pinned])
      .when(cmd('RemovePin', { reason: '   ' }))
      .thenThrows(IpfsErrors.reasonRequired);
    given([requested, started, pinned])
      .when(cmd('RemovePin', { reason: 'x'.repeat(501) }))
      .thenThrows(IpfsErrors.reasonRequired);
    const removed: IpfsPinEvent = { type: 'IpfsPinRemoved', data: { reason: 'r' } };
    given([requested, started, pinned, removed])
      .when(cmd('RemovePin', { reason: 'again' }))
      .thenThrows(IpfsErrors.alreadyUnpinned);
    given([requested, started, pinned, removed]).when(cmd('RetryPin', {})).thenThrows(IpfsErrors.notFailed);
    given([requested, started, pinned, removed]).when(cmd('StartPin', {})).thenThrows(IpfsErrors.notPinning);
    given([requested, started, pinned, removed]).when(cmd('RequestPin', request)).then([]);
  });

  it('a pin that does not exist is not found', () => {
    for (const c of [cmd('StartPin', {}), cmd('RetryPin', {}), cmd('RemovePin', { reason: 'r' }), cmd('FailPin', { reason: 'r' })]) {
      given([]).when(c).thenThrows(IpfsErrors.pinNotFound);
    }
  });
});

describe('preferred IPFS gateway', () => {
  it('keeps https gateways, path or subdomain, without a trailing slash or /ipfs', () => {
    expect(normaliseIpfsGateway('https://ipfs.io')).toBe('https://ipfs.io');
    expect(normaliseIpfsGateway(' https://ipfs.io/ipfs/ ')).toBe('https://ipfs.io');
    expect(normaliseIpfsGateway('https://gw.example.com/base/')).toBe('https://gw.example.com/base');
    expect(normaliseIpfsGateway('https://{cid}.ipfs.dweb.link')).toBe('https://{cid}.ipfs.dweb.link');
    expect(normaliseIpfsGateway('HTTPS://IPFS.IO')).toBe('https://ipfs.io');
  });

  it('refuses what is not a gateway address', () => {
    for (const bad of [
      '',
      'ipfs.io',
      'http://ipfs.io',
      'ftp://ipfs.io',
      'https://localhost',
      'https://user:pw@ipfs.io',
      'https://ipfs.io?x=1',
      'https://ipfs.io#x',
      'https://ipfs.io:8080',
      'https://ipfs.{cid}.io',
      'https://{cid}.{cid}.dweb.link',
      'javascript:alert(1)',
      `https://${'a'.repeat(200)}.io`,
    ])
      expect(normaliseIpfsGateway(bad), bad).toBeNull();
  });

  it('builds public links', () => {
    expect(ipfsGatewayLink('https://ipfs.io', 'bafy')).toBe('https://ipfs.io/ipfs/bafy');
    expect(ipfsGatewayLink('https://{cid}.ipfs.dweb.link', 'bafy')).toBe('https://bafy.ipfs.dweb.link');
  });
});

describe('IPFS settings', () => {
  const settings = DeciderSpecification.for(ipfsSettingsDecider);
  const choose = (gateway: string | null) => ({ type: 'ChooseIpfsGateway' as const, data: { gateway }, metadata });
  it('keeps a checked gateway, normalised; the same again changes nothing; empty goes back to the product', () => {
    settings([])
      .when(choose('https://ipfs.io/ipfs/'))
      .then([{ type: 'IpfsGatewayChosen', data: { gateway: 'https://ipfs.io' } }]);
    const chosen = { type: 'IpfsGatewayChosen' as const, data: { gateway: 'https://ipfs.io' } };
    settings([chosen]).when(choose('https://ipfs.io')).then([]);
    settings([chosen])
      .when(choose(' '))
      .then([{ type: 'IpfsGatewayChosen', data: { gateway: null } }]);
    settings([]).when(choose(null)).then([]);
    settings([]).when(choose('http://ipfs.io')).thenThrows(IpfsErrors.invalidGateway);
  });

  it('forgets the gateway with the account', () => {
    const forget = { type: 'ForgetIpfsSettings' as const, data: {}, metadata };
    settings([{ type: 'IpfsGatewayChosen', data: { gateway: 'https://ipfs.io' } }])
      .when(forget)
      .then([{ type: 'IpfsSettingsForgotten', data: {} }]);
    expect(ipfsSettingsDecider.evolve({ gateway: 'https://ipfs.io' }, { type: 'IpfsSettingsForgotten', data: {} })).toEqual({ gateway: null });
  });
});
