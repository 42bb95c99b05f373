import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import 'vazirmatn/Vazirmatn-font-face.css'
import { Providers } from './app/providers'
import { queryClient } from './app/queryClient'
import { router } from './app/router'
import { installSessionHandler } from './app/session'
import { primeThemeStorage } from './lib/theme'

primeThemeStorage()
installSessionHandler(router, queryClient)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
)
