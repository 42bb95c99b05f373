import { Alert, Button, Heading, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react'
import { useEffect, useState, type FormEvent } from 'react'
import { FormField, FormStack } from '../../components/FormField'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toPersianDigits } from '../../lib/digits'
import { EMPTY_SELLER, invoiceSellerApi, useAdminMutation, useInvoiceSeller, type InvoiceSeller } from './api'

const FIELDS: Array<{ key: keyof InvoiceSeller; label: string; helper?: string; digits?: boolean }> = [
  { key: 'name', label: 'نام فروشنده (شخص حقوقی)' },
  { key: 'national_id', label: 'شناسه ملی', helper: '۳ تا ۱۱ رقم', digits: true },
  { key: 'economic_code', label: 'کد اقتصادی', helper: '۳ تا ۱۲ رقم', digits: true },
  { key: 'registration_number', label: 'شماره ثبت', helper: '۳ تا ۱۵ رقم', digits: true },
  { key: 'postal_code', label: 'کد پستی', helper: '۱۰ رقم', digits: true },
  { key: 'phone', label: 'تلفن', helper: 'با پیش‌شماره، ۸ تا ۱۱ رقم', digits: true },
]

/**
 * /admin/invoice-seller: the seller's legal details printed on every customer
 * invoice; until every field is set no invoice is issued (the customer is told so).
 */
export default function InvoiceSellerPage() {
  const { data, isPending, isError, refetch } = useInvoiceSeller()
  const [form, setForm] = useState<InvoiceSeller>(EMPTY_SELLER)
  const save = useAdminMutation(() => invoiceSellerApi.save(form))
  useEffect(() => {
    if (data) setForm({ ...EMPTY_SELLER, ...data.seller })
  }, [data])
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.mutate(undefined)
  }
  const set = (k: keyof InvoiceSeller, v: string) => setForm((f) => ({ ...f, [k]: v }))
  return (
    <Stack gap="4" maxW="3xl">
      <Heading size="lg">مشخصات فروشنده فاکتور</Heading>
      <Text color="app.muted" fontSize="sm">
        این مشخصات به‌عنوان فروشنده روی فاکتور رسمی هر پرداخت آنلاین مشتریان چاپ می‌شود. تا همه آن‌ها ثبت نشده، فاکتوری صادر نمی‌شود و
        مشتری پیام «صدور فاکتور رسمی هنوز ممکن نیست» را می‌بیند. فاکتورهای صادرشده با مشخصات زمان صدور خود می‌مانند.
      </Text>
      {isError ? (
        <ErrorState onRetry={() => refetch()} />
      ) : (
        <SectionCard>
          {data && !data.complete && (
            <Alert.Root status="warning" mb="4" data-testid="seller-incomplete">
              <Alert.Indicator />
              <Alert.Title>مشخصات فروشنده کامل نیست؛ فاکتوری صادر نمی‌شود.</Alert.Title>
            </Alert.Root>
          )}
          <FormStack gap="4" onSubmit={submit} noValidate data-testid="seller-form" aria-busy={isPending}>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {FIELDS.map((f) => (
                <FormField key={f.key} label={f.label} helper={f.helper} error={err(f.key)} required>
                  <Input value={f.digits ? toPersianDigits(form[f.key]) : form[f.key]} inputMode={f.digits ? 'numeric' : undefined}
                    dir={f.digits ? 'ltr' : undefined} textAlign={f.digits ? 'right' : undefined} disabled={isPending}
                    onChange={(e) => set(f.key, e.target.value)} data-testid={`seller-${f.key}`} />
                </FormField>
              ))}
            </SimpleGrid>
            <FormField label="نشانی" error={err('address')} required>
              <Textarea value={form.address} rows={2} onChange={(e) => set('address', e.target.value)} disabled={isPending} data-testid="seller-address" />
            </FormField>
            {save.isError && <ServerMessage error={save.error} color="fg.error" fontSize="sm" data-testid="seller-error" />}
            {save.isSuccess && <Text color="green.fg" fontSize="sm" data-testid="seller-saved">مشخصات فروشنده ذخیره شد.</Text>}
            <Button type="submit" colorPalette="brand" alignSelf={{ base: 'stretch', md: 'flex-start' }} loading={save.isPending} data-testid="seller-save">
              ذخیره
            </Button>
          </FormStack>
        </SectionCard>
      )}
    </Stack>
  )
}
