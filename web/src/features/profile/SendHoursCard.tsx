import { Button, HStack, Input, Skeleton, Stack, Switch, Text } from '@chakra-ui/react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { FormField } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState } from '../../components/States'
import { api, errorText, isApiError } from '../../lib/api'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'

interface Hours { from: string; to: string }
interface SendHoursView { operators: Array<Hours & { operator: string }>; own: Hours | null }

const KEY = ['send-hours'] as const

/** The account's own sending hours: advertising sends go only within them and the operators' window (docs/sending-rules.md). */
export function SendHoursCard() {
  const qc = useQueryClient()
  const view = useQuery({ queryKey: KEY, queryFn: () => api.get<SendHoursView>('/send/hours') })
  const save = useMutation({
    mutationFn: (own: Hours | null) => api.post<unknown>('/send/hours', { own }),
    // A refusal of the hours is shown under the field; any other error is toasted below.
    meta: { silent: true },
    onSuccess: () => { void qc.invalidateQueries({ queryKey: KEY }); toaster.create({ type: 'success', description: 'ساعت ارسال ذخیره شد' }) },
  })
  const [on, setOn] = useState(false)
  const [hours, setHours] = useState<Hours>({ from: '09:00', to: '20:00' })
  useEffect(() => {
    if (view.data) {
      setOn(!!view.data.own)
      if (view.data.own) setHours(view.data.own)
    }
  }, [view.data])
  if (isApiError(view.error, 403)) return null
  const all = view.data?.operators.find((o) => o.operator === '')
  const fieldErr = isApiError(save.error, 422) ? (save.error.fieldError('send_hours') ?? errorText(save.error)) : undefined
  return (
    <SectionCard title="ساعت ارسال تبلیغاتی حساب"
      description="ارسال‌های خطوط تبلیغاتی شما فقط در این ساعت‌ها و در ساعت مجاز اپراتورها انجام می‌شود؛ خارج از آن تا ساعت مجاز بعدی نگه داشته می‌شود.">
      {view.isPending ? <Skeleton h="20" /> : !view.data ? <ErrorState description={errorText(view.error)} onRetry={() => view.refetch()} /> : (
        <Stack gap="3" maxW="md">
          {all && <Text fontSize="sm" color="app.muted">{`ساعت مجاز اپراتورها: ${toPersianDigits(all.from)} تا ${toPersianDigits(all.to)} به وقت تهران`}</Text>}
          <Switch.Root checked={on} onCheckedChange={(e) => setOn(e.checked)} data-testid="settings-send-hours-on">
            <Switch.HiddenInput />
            <Switch.Control />
            <Switch.Label>ساعت ارسال محدودتری تعیین می‌کنم</Switch.Label>
          </Switch.Root>
          <HStack gap="3" align="start">
            <FormField label="از ساعت" error={fieldErr}>
              <Input disabled={!on} dir="ltr" value={toPersianDigits(hours.from)} onChange={(e) => setHours({ ...hours, from: e.target.value })}
                data-testid="settings-send-hours-from" />
            </FormField>
            <FormField label="تا ساعت">
              <Input disabled={!on} dir="ltr" value={toPersianDigits(hours.to)} onChange={(e) => setHours({ ...hours, to: e.target.value })}
                data-testid="settings-send-hours-to" />
            </FormField>
          </HStack>
          <Button alignSelf="flex-start" colorPalette="brand" loading={save.isPending} data-testid="settings-send-hours-save"
            onClick={() => save.mutate(on ? { from: toLatinDigits(hours.from), to: toLatinDigits(hours.to) } : null, {
              onError: (err) => !isApiError(err, 422) && toaster.create({ type: 'error', description: errorText(err) }),
            })}>
            ذخیره ساعت ارسال
          </Button>
        </Stack>
      )}
    </SectionCard>
  )
}
