import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { RootLayout } from './RootLayout';
import { ROUTES } from './routeTable';
import { SCREENS } from './screens';

/** react-router paths from the table: `:x?` and `*` read the same in both. */
const children: RouteObject[] = ROUTES.map((def) => {
  const Screen = SCREENS[def.screen];
  return def.pattern === '/' ? { index: true, element: <Screen /> } : { path: def.pattern.slice(1), element: <Screen /> };
});

export const createAppRouter = () =>
  createBrowserRouter([
    {
      path: '/',
      element: <RootLayout />,
      children: [...children, { path: '*', element: <NotFoundPage /> }],
    },
  ]);
