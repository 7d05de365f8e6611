import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);
const apiTarget = 'http://127.0.0.1:8080';

// The API server serves the built console under /admin/, so every asset URL carries that base.
export default defineConfig({
  root: here('.'),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    // react-admin and MUI make one large vendor chunk; splitting it buys nothing for a staff tool.
    chunkSizeWarningLimit: 4096,
  },
  server: {
    proxy: {
      '/api': { target: apiTarget },
    },
  },
});
