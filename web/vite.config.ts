/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// The API (cmd/api) serves the built panel; during development Vite proxies /v1 to it.
const api = process.env.CHAPAR_API ?? 'http://127.0.0.1:8080'

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    proxy: {
      '/v1/ws': { target: api, ws: true },
      '/v1': { target: api },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    // No inline module-preload polyfill: the Content-Security-Policy allows no inline script.
    modulePreload: { polyfill: false },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    // vi.stubGlobal (fetch, XMLHttpRequest, matchMedia) is undone before every test.
    unstubGlobals: true,
    // Under make test's load (two cores shared with the Go and end-to-end tests) a test
    // that takes 1 s alone can take several: each test gets 90 s, not 5 (a test waits
    // on several findBy* steps of up to 25 s each).
    testTimeout: 90_000,
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
})
