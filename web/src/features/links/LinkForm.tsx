import { Alert, Button, Input, SimpleGrid } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { Modal } from '../../components/Overlays'
import { ServerMessage } from '../../components/ServerMessage'
import { isApiError } from '../../lib/api'
import { toaster } from '../../lib/toaster'
import { MSG_LINK_PENDING, useCreateLink, type LinkInput } from './api'

const EMPTY: LinkInput = { title: '', url: '', utm_source: '', utm_medium: '', utm_campaign: '' }
const UTM = /^[A-Za-z0-9._-]{0,60}$/

/** The form's own checks, the same as the server's (pkg/links). */
export function linkErrors(v: LinkInput): Partial<Record<keyof LinkInput, string>> {
  const e: Partial<Record<keyof LinkInput, string>> = {}
  if (!v.title.trim()) e.title = 'عنوان لینک را وارد کنید'
  else if ([...v.title.trim()].length > 100) e.title = 'عنوان لینک حداکثر ۱۰۰ کاراکتر است'
  if (!/^https?:\/\/[^\s/]+\S*$/.test(v.url.trim())) e.url = 'نشانی لینک باید با http:// یا https:// شروع شود و معتبر باشد'
  for (const k of ['utm_source', 'utm_medium', 'utm_campaign'] as const) {
    if (!UTM.test(v[k].trim())) e[k] = 'فقط حروف لاتین، رقم، خط تیره، زیرخط و نقطه'
  }
  return e
}

/** «لینک جدید»: a title, the target address and its UTM parameters. */
export function LinkFormModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [v, setV] = useState<LinkInput>(EMPTY)
  const [touched, setTouched] = useState(false)
  const save = useCreateLink()
  const errors = linkErrors(v)
  const server = (f: string) => (isApiError(save.error) ? save.error.fieldError(f) : undefined)
  const err = (f: keyof LinkInput) => (touched && errors[f]) || server(f)
  const set = (k: keyof LinkInput) => (e: React.ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.target.value })
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.keys(errors).length) return
    save.mutate(v, {
      onSuccess: (l) => {
        toaster.create(l.status === 'pending'
          ? { type: 'warning', title: MSG_LINK_PENDING }
          : { type: 'success', title: 'لینک ردیابی ساخته شد' })
        setV(EMPTY)
        onClose()
      },
    })
  }
  const fieldless = save.isError && !['title', 'url', 'utm_source', 'utm_medium', 'utm_campaign'].some(server)
  return (
    <Modal open={open} onClose={onClose} title="لینک ردیابی جدید" closeOnInteractOutside={false}>
      <FormStack gap="4" onSubmit={submit} noValidate pb="2" data-testid="link-form">
        <FormField label="عنوان" required error={err('title')}>
          <Input value={v.title} onChange={set('title')} autoFocus data-testid="link-title" />
        </FormField>
        <FormField label="نشانی مقصد" required error={err('url')} helper="پارامترهای UTM به این نشانی افزوده می‌شوند.">
          <Input value={v.url} onChange={set('url')} dir="ltr" placeholder="https://example.com/offer" data-testid="link-url" />
        </FormField>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
          <FormField label="utm_source" error={err('utm_source')} helper="پیش‌فرض: chapar">
            <Input value={v.utm_source} onChange={set('utm_source')} dir="ltr" />
          </FormField>
          <FormField label="utm_medium" error={err('utm_medium')} helper="پیش‌فرض: sms">
            <Input value={v.utm_medium} onChange={set('utm_medium')} dir="ltr" />
          </FormField>
          <FormField label="utm_campaign" error={err('utm_campaign')} helper="پیش‌فرض: شماره ارسال">
            <Input value={v.utm_campaign} onChange={set('utm_campaign')} dir="ltr" />
          </FormField>
        </SimpleGrid>
        {fieldless && (
          <Alert.Root status="error" rounded="lg">
            <Alert.Indicator />
            <Alert.Description><ServerMessage error={save.error} /></Alert.Description>
          </Alert.Root>
        )}
        <Button type="submit" colorPalette="brand" loading={save.isPending} alignSelf="flex-end" data-testid="link-save">ساخت لینک</Button>
      </FormStack>
    </Modal>
  )
}
