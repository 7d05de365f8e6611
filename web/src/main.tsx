import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadHostBranding } from './features/branding/hostBranding';
import { initI18n } from './i18n';
import { installUnauthorizedHandler, loadSession } from './session/session';

const start = async () => {
  installUnauthorizedHandler();
  await initI18n();
  void loadSession();
  void loadHostBranding();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root element missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
};

void start();
