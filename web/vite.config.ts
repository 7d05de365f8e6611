import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);
const apiTarget = 'http://127.0.0.1:8080';

export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [react()],
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group)/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            // pdf.js comes with the first PDF preview only
            { name: 'pdf', test: /node_modules[\\/](pdfjs-dist|react-pdf)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget },
      // The staff console is served by the API server; proxying it keeps full-page /admin links working in development.
      '/admin': { target: apiTarget },
    },
  },
});
