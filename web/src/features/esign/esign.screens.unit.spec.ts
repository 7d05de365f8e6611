import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../routing/routeTable';
import { esignScreenOf } from './EsignPage';
import { hasEsign } from './EsignPlanGate';

const screenAt = (url: string) => {
  const [path, query = ''] = url.split('?');
  const match = matchRoute(path!);
  expect(match?.def.screen, url).toBe('esign');
  return esignScreenOf(path!, match!.params.packageId, new URLSearchParams(query).get('id'));
};

describe('the owner e-sign addresses', () => {
  it('lead to their screens, signed in', () => {
    expect(matchRoute('/esigns/list')?.def.access).toBe('auth');
    expect(screenAt('/esigns/list')).toEqual({ kind: 'list', view: 'list' });
    expect(screenAt('/esigns/drafts/')).toEqual({ kind: 'list', view: 'drafts' });
    expect(screenAt('/esigns/archive')).toEqual({ kind: 'list', view: 'archive' });
    expect(screenAt('/esigns/package/upload')).toEqual({ kind: 'upload' });
    expect(screenAt('/esigns/package/prepare?id=p1')).toEqual({ kind: 'prepare', packageId: 'p1', readOnly: false });
    expect(screenAt('/esigns/package/preview?id=p1')).toEqual({ kind: 'preview', packageId: 'p1' });
    expect(screenAt('/esigns/edit/1/p1')).toEqual({ kind: 'upload', packageId: 'p1' });
    expect(screenAt('/esigns/edit/2/p1')).toEqual({ kind: 'prepare', packageId: 'p1', readOnly: false });
    expect(screenAt('/esigns/view/1/p1')).toEqual({ kind: 'view', packageId: 'p1' });
    expect(screenAt('/esigns/view/2/p1')).toEqual({ kind: 'prepare', packageId: 'p1', readOnly: true });
    expect(screenAt('/esigns/preview/p1')).toEqual({ kind: 'preview', packageId: 'p1' });
  });

  it('say the package is missing when a step is opened without one', () => {
    expect(screenAt('/esigns/package/prepare')).toEqual({ kind: 'missing' });
    expect(screenAt('/esigns/preview')).toEqual({ kind: 'missing' });
  });

  it("leave a signer's link to the signing page", () => {
    expect(matchRoute('/esigns/AbCdEfGhIjKlMnOpQrStUv')?.def.screen).not.toBe('esign');
  });

  it('are open to plans with eSign only', () => {
    expect(hasEsign({ planFeatures: ['esign', 'e2ee'] })).toBe(true);
    expect(hasEsign({ planFeatures: [] })).toBe(false);
    expect(hasEsign({})).toBe(false);
    expect(hasEsign(null)).toBe(false);
  });
});
