import { Button, Input, SegmentGroup, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { FormField, FormStack } from '../../components/FormField'
import { ServerMessage } from '../../components/ServerMessage'
import { uuid } from '../../lib/uuid'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useSendPattern, type SendInput, type Variable } from './api'
import { checkValue, parseList } from './model'
import { PatternPreview } from './PatternPreview'

/** The "send this pattern" form: one recipient with values, or a pasted list (up to 1,000 lines). */
export function SendPatternForm({ code, text, variables }: { code: string; text: string; variables: Variable[] }) {
  const navigate = useNavigate()
  const [mode, setMode] = useState<'single' | 'list'>('single')
  const [mobile, setMobile] = useState('')
  const [values, setValues] = useState<Record<string, string>>({})
  const [list, setList] = useState('')
  const [key, setKey] = useState(uuid)
  const [touched, setTouched] = useState(false)
  const send = useSendPattern()
  const parsed = parseList(list, variables)
  const valueErrs = Object.fromEntries(variables.map((v) => [v.name, checkValue(v, values[v.name] ?? '')]))
  const listErr = parsed.bad.length
    ? `سطرهای ${parsed.bad.slice(0, 10).map((n) => toPersianDigits(n)).join('، ')} کامل نیست`
    : parsed.recipients.length > 1000 ? 'حداکثر ۱۰۰۰ گیرنده' : parsed.recipients.length === 0 ? 'فهرست گیرندگان خالی است' : undefined
  const invalid = mode === 'single' ? !mobile.trim() || Object.values(valueErrs).some(Boolean) : !!listErr

  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (invalid) return
    const input: SendInput = mode === 'single' ? { code, recipient: mobile, values } : { code, recipients: parsed.recipients }
    send.mutate({ input, key }, {
      onSuccess: (s) => {
        setKey(uuid())
        toaster.create({ type: s.held ? 'warning' : 'success', title: s.held ? 'ارسال ثبت شد و پیش از ارسال بررسی می‌شود' : 'ارسال ثبت شد' })
        navigate(`/reports/${s.id}`)
      },
    })
  }

  return (
    <FormStack gap="4" onSubmit={submit} noValidate data-testid="pattern-send-form">
      <SegmentGroup.Root size="sm" value={mode} onValueChange={(e) => setMode(e.value as 'single' | 'list')}>
        <SegmentGroup.Indicator />
        <SegmentGroup.Items items={[{ value: 'single', label: 'یک گیرنده' }, { value: 'list', label: 'فهرست گیرندگان' }]} />
      </SegmentGroup.Root>
      {mode === 'single' ? (
        <Stack gap="3">
          <FormField label="شماره موبایل گیرنده" required error={touched && !mobile.trim() ? 'شماره گیرنده را وارد کنید' : undefined}>
            <Input dir="ltr" inputMode="tel" value={mobile} onChange={(e) => setMobile(e.target.value)} placeholder="09121234567" data-testid="pattern-send-mobile" />
          </FormField>
          {variables.map((v) => (
            <FormField key={v.name} label={<bdi dir="ltr">{`%${v.name}%`}</bdi>} required error={touched ? valueErrs[v.name] : undefined}
              helper={`${v.type === 'integer' ? 'عدد' : 'رشته'}، حداکثر ${toPersianDigits(v.length)} کاراکتر`}>
              <Input value={values[v.name] ?? ''} onChange={(e) => setValues((x) => ({ ...x, [v.name]: e.target.value }))}
                data-testid={`pattern-value-${v.name}`} />
            </FormField>
          ))}
          <PatternPreview text={text} variables={variables} values={values} />
        </Stack>
      ) : (
        <FormField label="گیرندگان" required error={touched ? listErr : undefined}
          helper={`هر سطر یک گیرنده: شماره موبایل، سپس ${variables.map((v) => v.name).join('، ')} — جداشده با ویرگول یا Tab (قابل چسباندن از اکسل)`}>
          <Textarea dir="ltr" rows={6} value={list} onChange={(e) => setList(e.target.value)}
            placeholder={`09121234567,${variables.map(() => '…').join(',')}`} />
          <Text fontSize="xs" color="fg.muted">{`${toPersianDigits(parsed.recipients.length)} گیرنده`}</Text>
        </FormField>
      )}
      {send.error && <ServerMessage error={send.error} />}
      <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={send.isPending} data-testid="pattern-send">ارسال</Button>
    </FormStack>
  )
}
