import { ChakraProvider, createSystem, defaultConfig, LocaleProvider, type SystemContext } from '@chakra-ui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, type RenderOptions } from '@testing-library/react'
import type { ReactElement, ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { afterEach } from 'vitest'
import { createQueryClient } from '../app/queryClient'
import { ACL_KEY, type Acl } from '../lib/acl'

// vitest runs without globals here, so Testing Library's automatic cleanup is registered by hand.
afterEach(() => cleanup())

// jsdom lacks a few browser APIs that Chakra (zag / floating-ui) touch.
if (typeof window !== 'undefined') {
  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.assign(window, { ResizeObserver: ResizeObserverStub })
  }
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = function scrollIntoView() {}
  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = function scrollTo() {}
}

// The app's theme is used when it exists (src/app/theme.ts exporting `system`), else Chakra's default.
const appTheme = Object.values(import.meta.glob<{ system?: SystemContext }>('../app/theme.{ts,tsx}', { eager: true }))[0]
export const testSystem: SystemContext = appTheme?.system ?? createSystem(defaultConfig)

export interface ProviderOptions extends Omit<RenderOptions, 'wrapper'> {
  /** Initial URL of the MemoryRouter, e.g. '/reports?page=2'. */
  route?: string
  queryClient?: QueryClient
}

/**
 * The panel's own query client (src/app/queryClient.ts): a failed mutation toasts unless
 * its form shows the error itself, for tests of where an error is shown.
 */
export const appClient = createQueryClient

/** A query client for tests: a failed query fails at once (no retries). */
export function testClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } })
}

export function TestProviders({ children, route = '/', queryClient }: { children: ReactNode; route?: string; queryClient?: QueryClient }) {
  const client = queryClient ?? testClient()
  return (
    <ChakraProvider value={testSystem}>
      <LocaleProvider locale="fa-IR">
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={[route]}>
            <div dir="rtl" lang="fa">
              {children}
            </div>
          </MemoryRouter>
        </QueryClientProvider>
      </LocaleProvider>
    </ChakraProvider>
  )
}

/** A query client whose access list is the account owner's (every permission). */
export function ownerClient(): QueryClient {
  const client = testClient()
  client.setQueryData<Acl>(ACL_KEY, { is_owner: true, reseller_id: 0, permissions: [] })
  return client
}

/** Renders inside Chakra (RTL, fa-IR), react-query and a MemoryRouter at `route`. */
export function renderWithProviders(ui: ReactElement, { route, queryClient, ...options }: ProviderOptions = {}) {
  return render(ui, {
    wrapper: ({ children }) => (
      <TestProviders route={route} queryClient={queryClient}>
        {children}
      </TestProviders>
    ),
    ...options,
  })
}

/**
 * Sets the screen the tests run on: `window.matchMedia` (absent in jsdom) answers every
 * query with `mobile`, which is how the panel's viewport hooks tell a screen narrower
 * than 768 px.
 */
export function setViewport(mobile: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: mobile,
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    }),
  })
}
