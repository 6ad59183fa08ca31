// Vite build of the console: React, output in dist/ for `tollgate serve` to hand out at /.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // The engine declares "sideEffects": false, so its parts the editor needs (the sheet compiler, YAML)
  // follow the lazily loaded editor instead of landing in the initial chunk.
  build: { outDir: 'dist', emptyOutDir: true },
});
