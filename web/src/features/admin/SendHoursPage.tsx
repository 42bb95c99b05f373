import { Button, Field, Heading, HStack, Input, NativeSelect, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useAdminMutation } from './api'
import { OPERATOR_NAMES, sendHoursApi, useSendHours, type SendHoursRule } from './sendHoursApi'

/** /admin/send-hours: the hours in which advertising lines may send, per operator (Tehran time). */
export default function SendHoursPage() {
  const { data, isPending, isError, refetch } = useSendHours()
  const remove = useAdminMutation((r: SendHoursRule) => sendHoursApi.remove(r), { silent: true })
  const columns: DataTableColumn<SendHoursRule>[] = [
    { key: 'operator', title: 'اپراتور', render: (r) => OPERATOR_NAMES[r.operator] ?? r.operator },
    { key: 'line_kind', title: 'نوع خط', render: () => 'تبلیغاتی' },
    { key: 'from', title: 'از ساعت', render: (r) => toPersianDigits(r.from) },
    { key: 'to', title: 'تا ساعت', render: (r) => toPersianDigits(r.to) },
    { key: 'updated_at', title: 'آخرین تغییر', hideOnMobile: true, render: (r) => (r.updated_at ? formatJalaliDateTime(r.updated_at) : '—') },
    {
      key: 'actions', title: 'اقدام', render: (r) =>
        r.operator === '' ? <Text as="span" fontSize="xs" color="app.muted">حذف‌شدنی نیست</Text> : (
          <Button size="xs" variant="outline" colorPalette="red" loading={remove.isPending && remove.variables?.operator === r.operator}
            onClick={() => remove.mutate(r)}>حذف</Button>
        ),
    },
  ]
  return (
    <Stack gap="4">
      <Heading size="lg">ساعت مجاز ارسال</Heading>
      <Text color="app.muted" fontSize="sm">
        خطوط تبلیغاتی فقط در این ساعت‌ها (به وقت تهران) ارسال می‌کنند؛ ارسال خارج از آن رد یا تا باز شدن ساعت مجاز نگه داشته می‌شود و
        ارسال در جریان با پایان ساعت مجاز متوقف و با شروع دوباره آن ادامه می‌یابد. خطوط خدماتی همیشه ارسال می‌کنند. ردیف «همه اپراتورها»
        برای اپراتوری است که ردیف خودش را ندارد.
      </Text>
      {remove.isError && <ServerMessage error={remove.error} color="fg.error" fontSize="sm" />}
      <DataTable caption="ساعت مجاز ارسال" columns={columns} rows={data?.rules} rowKey={(r) => `${r.operator}:${r.line_kind}`}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} emptyText="ساعتی تعیین نشده است؛ خطوط تبلیغاتی در همه ساعات ارسال می‌کنند" />
      <RuleForm operators={data?.operator_codes ?? []} />
    </Stack>
  )
}

function RuleForm({ operators }: { operators: string[] }) {
  const [rule, setRule] = useState<SendHoursRule>({ operator: '', line_kind: 'advertising', from: '07:00', to: '22:00' })
  const save = useAdminMutation(() => sendHoursApi.save({ ...rule, from: toLatinDigits(rule.from), to: toLatinDigits(rule.to) }), { silent: true })
  const err = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined)
  return (
    <SectionCard>
      <Stack gap="3" maxW="md">
        <Heading size="sm">تعیین ساعت مجاز</Heading>
        <Field.Root invalid={!!err('operator')}>
          <Field.Label>اپراتور</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={rule.operator} onChange={(e) => setRule({ ...rule, operator: e.target.value })} data-testid="hours-operator">
              {['', ...operators].map((o) => <option key={o} value={o}>{OPERATOR_NAMES[o] ?? o}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{err('operator')}</Field.ErrorText>
        </Field.Root>
        <HStack gap="3" align="start">
          <Field.Root>
            <Field.Label>از ساعت</Field.Label>
            <Input value={toPersianDigits(rule.from)} onChange={(e) => setRule({ ...rule, from: e.target.value })} dir="ltr" placeholder="۰۷:۰۰" data-testid="hours-from" />
          </Field.Root>
          <Field.Root invalid={!!err('to')}>
            <Field.Label>تا ساعت</Field.Label>
            <Input value={toPersianDigits(rule.to)} onChange={(e) => setRule({ ...rule, to: e.target.value })} dir="ltr" placeholder="۲۲:۰۰" data-testid="hours-to" />
            <Field.ErrorText>{err('to')}</Field.ErrorText>
          </Field.Root>
        </HStack>
        {save.isError && !(save.error instanceof ApiError && Object.keys(save.error.errors).length) && (
          <ServerMessage error={save.error} color="fg.error" fontSize="sm" />
        )}
        {save.isSuccess && <Text fontSize="sm" color="fg.success">ساعت مجاز ذخیره شد.</Text>}
        <Button alignSelf="flex-start" colorPalette="brand" loading={save.isPending} onClick={() => save.mutate(undefined)} data-testid="hours-save">
          ذخیره
        </Button>
      </Stack>
    </SectionCard>
  )
}
