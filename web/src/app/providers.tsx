import { ChakraProvider, LocaleProvider } from '@chakra-ui/react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { ThemeProvider } from 'next-themes'
import type { ReactNode } from 'react'
import { NEXT_THEMES_KEY, useDarkKeySync } from '../lib/theme'
import { LiveBridge } from './LiveBridge'
import { system } from './theme'
import { Toaster } from './Toaster'

function DarkKeySync() {
  useDarkKeySync()
  return null
}

/** Chakra (RTL, fa-IR), next-themes synced to the `dark` key, react-query, live updates, toasts. */
export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <LocaleProvider locale="fa-IR">
        <ThemeProvider attribute="class" storageKey={NEXT_THEMES_KEY} enableSystem={false} defaultTheme="light" disableTransitionOnChange>
          <DarkKeySync />
          <QueryClientProvider client={queryClient}>
            <LiveBridge />
            {children}
            <Toaster />
          </QueryClientProvider>
        </ThemeProvider>
      </LocaleProvider>
    </ChakraProvider>
  )
}
