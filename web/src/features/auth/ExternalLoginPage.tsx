import { Alert, Button, Center, Spinner, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useNavigate, useSearchParams } from 'react-router'
import { clearToken, setToken } from '../../lib/auth'
import { ServerMessage } from '../common/ServerMessage'
import { authApi } from './api'
import { AuthShell } from './AuthShell'
import { queryKeys } from '../../lib/queryKeys'

/** /external-login?token=… (impersonation): store the token, verify it, go to the dashboard. */
export default function ExternalLoginPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [error, setError] = useState<unknown>(null)
  const started = useRef(false)
  const token = params.get('token')?.trim() ?? ''

  useEffect(() => {
    if (started.current) return
    started.current = true
    if (!token) {
      setError('پیوند ورود معتبر نیست.')
      return
    }
    queryClient.clear()
    setToken(token)
    authApi
      .verifyToken()
      .then((me) => {
        queryClient.setQueryData(queryKeys.me, me)
        navigate('/dashboard', { replace: true })
      })
      .catch((err: unknown) => {
        clearToken()
        setError(err)
      })
  }, [token, navigate, queryClient])

  return (
    <AuthShell title="ورود از طریق پیوند" subtitle="در حال بررسی دسترسی شما">
      {error ? (
        <Stack gap="4" data-testid="external-login-error">
          <Alert.Root status="error" rounded="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>ورود انجام نشد</Alert.Title>
              <Alert.Description>
                <ServerMessage error={error} />
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Button colorPalette="brand" onClick={() => navigate('/login', { replace: true })}>
            رفتن به صفحه ورود
          </Button>
        </Stack>
      ) : (
        <Center py="8">
          <Stack align="center" gap="3">
            <Spinner size="lg" color="brand.solid" />
            <Text color="app.muted">در حال بارگذاری</Text>
          </Stack>
        </Center>
      )}
    </AuthShell>
  )
}
