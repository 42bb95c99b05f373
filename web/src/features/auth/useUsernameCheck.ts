import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { authApi } from './api'
import { usernameError } from './validation'

/** Live "is this username taken?" (POST /user/check_exist), debounced while typing. */
export function useUsernameCheck(username: string, delay = 600) {
  const [debounced, setDebounced] = useState(username)
  useEffect(() => {
    const t = setTimeout(() => setDebounced(username.trim()), delay)
    return () => clearTimeout(t)
  }, [username, delay])
  const valid = !!debounced && usernameError(debounced) === null
  const q = useQuery({
    queryKey: ['auth', 'check-exist', debounced],
    queryFn: () => authApi.checkExist(debounced),
    enabled: valid,
    retry: false,
    staleTime: 60_000,
  })
  const settled = debounced === username.trim()
  return {
    checking: valid && (q.isFetching || !settled),
    exists: settled && valid && q.data?.exists === true,
    available: settled && valid && q.data?.exists === false,
  }
}
