import { Button, Card, Field, HStack, Input, Text } from '@chakra-ui/react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ApiError } from '../../lib/apiError'
import { queryKeys } from '../../lib/queryKeys'
import { toaster } from '../../lib/toaster'
import { adminApi, useAdminMutation } from './api'

/**
 * The «old panel» strip customers see on the login page and every panel page: off (the
 * default) while its address is empty, else a link to the address staff set here.
 */
export function OldPanelCard() {
  const qc = useQueryClient()
  const current = useQuery({ queryKey: queryKeys.loginSetting, queryFn: adminApi.loginSetting })
  const [url, setUrl] = useState<string | null>(null)
  const save = useAdminMutation(adminApi.saveOldPanel)
  const value = url ?? current.data?.old_panel_url ?? ''
  const err = save.error instanceof ApiError ? save.error.fieldError('url') : undefined
  const submit = () =>
    save.mutate({ url: value }, {
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: queryKeys.loginSetting })
        setUrl(null)
        toaster.create({ type: 'success', title: r.url ? 'نوار پنل قدیم روشن شد' : 'نوار پنل قدیم خاموش شد' })
      },
    })
  return (
    <Card.Root variant="outline" rounded="xl" data-testid="old-panel-setting">
      <Card.Body gap="3">
        <Text fontWeight="semibold">نوار «پنل قدیم»</Text>
        <Text fontSize="sm" color="app.muted">
          نشانی پنل قدیم را وارد کنید تا نوار آن در صفحه ورود و بالای پنل مشتریان نمایش داده شود؛ خالی یعنی نوار نمایش داده نمی‌شود.
        </Text>
        <Field.Root invalid={!!err}>
          <Field.Label>نشانی پنل قدیم</Field.Label>
          <HStack w="full" gap="2" align="start" wrap="wrap">
            <Input dir="ltr" flex="1" minW="220px" placeholder="https://old.example.ir" value={value}
              onChange={(e) => setUrl(e.target.value)} data-testid="old-panel-url" />
            <Button colorPalette="brand" onClick={submit} loading={save.isPending} data-testid="old-panel-save">ذخیره</Button>
          </HStack>
          {err && <Field.ErrorText>{err}</Field.ErrorText>}
        </Field.Root>
      </Card.Body>
    </Card.Root>
  )
}
