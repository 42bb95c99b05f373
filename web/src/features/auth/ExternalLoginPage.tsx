import { Alert, Button, Center, HStack, Spinner, Stack, Text } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearchParams } from 'react-router'
import { setToken } from '../../lib/auth'
import { queryKeys } from '../../lib/queryKeys'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi, type ExternalAccount } from './api'
import { AuthShell } from './AuthShell'

const BAD_LINK = 'پیوند ورود معتبر نیست.'

/**
 * /external-login?code=… (impersonation, or opening the panel from elsewhere): the
 * one-time code is exchanged by the server only after the visitor confirms the account
 * it names. A link never carries a session token; an old ?token= link is refused.
 */
export default function ExternalLoginPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const code = params.get('code')?.trim() ?? ''
  const preview = useQuery({
    queryKey: ['external-login', code],
    queryFn: () => authApi.previewExternal(code),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  })
  const error = !code ? BAD_LINK : preview.error
  const toLogin = () => navigate('/login', { replace: true })

  return (
    <AuthShell title="ورود از طریق پیوند" subtitle="پیش از ورود، حساب را بررسی کنید.">
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
          <Button colorPalette="brand" onClick={toLogin}>
            رفتن به صفحه ورود
          </Button>
        </Stack>
      ) : preview.data ? (
        <Confirm code={code} account={preview.data} onCancel={toLogin} />
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

/** The confirmation screen: which account the link opens, confirm or cancel. */
function Confirm({ code, account, onCancel }: { code: string; account: ExternalAccount; onCancel: () => void }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const exchange = useMutation({
    mutationFn: () => authApi.exchangeExternal(code),
    meta: { silent: true },
    onSuccess: async (d) => {
      queryClient.clear()
      setToken(d.token)
      const me = await authApi.verifyToken().catch(() => null)
      if (me) queryClient.setQueryData(queryKeys.me, me)
      navigate('/dashboard', { replace: true })
    },
  })
  return (
    <Stack gap="5" data-testid="external-login-confirm">
      <Alert.Root status="warning" rounded="lg">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>این پیوند شما را وارد حساب زیر می‌کند</Alert.Title>
          <Alert.Description>اگر این پیوند را خودتان درخواست نکرده‌اید، انصراف دهید.</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Stack gap="1" p="4" rounded="lg" borderWidth="1px" data-testid="external-login-account">
        <Text fontWeight="bold">{account.name}</Text>
        <Text fontSize="sm" color="app.muted">
          نام کاربری: <bdi dir="ltr" data-testid="external-login-username">{account.username}</bdi>
        </Text>
        <Text fontSize="sm" color="app.muted">
          حساب: {account.account_name}
        </Text>
      </Stack>
      {exchange.error ? (
        <Text as="div" color="fg.error" fontSize="sm" role="alert">
          <ServerMessage error={exchange.error} />
        </Text>
      ) : null}
      <HStack gap="3">
        <Button flex="1" colorPalette="brand" size="lg" loading={exchange.isPending} onClick={() => exchange.mutate()} data-testid="external-login-accept">
          ورود به این حساب
        </Button>
        <Button flex="1" variant="outline" size="lg" onClick={onCancel} data-testid="external-login-cancel">
          انصراف
        </Button>
      </HStack>
    </Stack>
  )
}
