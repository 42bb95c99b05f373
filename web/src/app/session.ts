import type { QueryClient } from '@tanstack/react-query'
import { setUnauthorizedHandler } from '../lib/api'
import { clearToken } from '../lib/auth'

interface Navigator {
  navigate: (to: string, opts?: { replace?: boolean }) => unknown
  state: { location: { pathname: string } }
}

/** Spec §4: a 401 from a non-exempt call removes the token, clears the cache and goes to /login. */
export function installSessionHandler(router: Navigator, queryClient: QueryClient) {
  setUnauthorizedHandler(() => {
    clearToken()
    queryClient.cancelQueries()
    queryClient.clear()
    if (router.state.location.pathname !== '/login') router.navigate('/login', { replace: true })
  })
}
