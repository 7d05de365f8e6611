import { isValidElement, type ReactElement } from 'react';
import { matchRoutes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { appRoutes } from './routes';

const ADMIN = <div data-testid="console" />;
const target = (path: string) => {
  const element = matchRoutes(appRoutes(ADMIN), path)?.at(-1)?.route.element;
  if (element === ADMIN) return 'console';
  return isValidElement(element) ? (element as ReactElement<{ to: string }>).props.to : null;
};

describe('console top routes', () => {
  it("redirects the specification's /admin/delacc to the deleted users list", () => {
    expect(target('/admin/delacc')).toBe('/admin/deleted-users');
  });

  it('keeps the console paths and the dashboard redirects', () => {
    expect(target('/admin/deleted-users')).toBe('console');
    expect(target('/admin/users')).toBe('console');
    expect(target('/admin')).toBe('/admin/dashboard');
    expect(target('/elsewhere')).toBe('/admin/dashboard');
  });
});
