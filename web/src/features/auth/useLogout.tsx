import { Button, Dialog, Portal, Text } from '@chakra-ui/react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { clearToken } from '../../lib/auth'
import { ServerMessage } from '../../components/ServerMessage'
import { authApi } from './api'

/**
 * Logout (spec §4 Session): success removes the token, clears every cached query and goes to
 * /login; failure opens a dialog with the error and a confirm button.
 */
export function useLogout() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [error, setError] = useState<unknown>(null)
  const mutation = useMutation({
    mutationFn: authApi.logout,
    meta: { silent: true },
    onSuccess: () => {
      clearToken()
      queryClient.clear()
      navigate('/login', { replace: true })
    },
    onError: (err) => setError(err),
  })

  const dialog = (
    <Dialog.Root open={error !== null} onOpenChange={(e) => !e.open && setError(null)} placement="center" role="alertdialog">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>خروج انجام نشد</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text as="div" color="fg.muted">
                <ServerMessage error={error} />
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="brand" onClick={() => setError(null)}>
                تایید
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )

  return { logout: () => mutation.mutate(), pending: mutation.isPending, dialog }
}
