import { Button, Input, SegmentGroup, Stack, Text, Textarea } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { FormField, FormStack } from '../../components/FormField'
import { ServerMessage } from '../../components/ServerMessage'
import { SenderPicker } from '../../components/SenderPicker'
import { useSenderLines, type SenderLine } from '../../lib/lines'
import { uuid } from '../../lib/uuid'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useSendPattern, type SendInput, type Variable } from './api'
import { checkValue, parseList } from './model'
import { PatternPreview } from './PatternPreview'

/** Whether a pattern send carries «لغو۱۱» on a line (docs/patterns.md «Line and footer»). */
const patternFooterNote = (line: SenderLine) =>
  line.kind === 'advertising'
    ? 'خط تبلیغاتی: عبارت «لغو۱۱» به انتهای پیامک افزوده می‌شود.'
    : 'خط خدماتی: پیامک بدون «لغو۱۱» ارسال می‌شود.'

/**
 * The line of a pattern send: the account's service lines (an OTP or transactional
 * pattern may use no other), the default service line preselected; without one, the
 * platform's shared service line (sender left empty).
 */
function PatternLine({ kind, value, onChange }: { kind: string; value: string; onChange: (v: string) => void }) {
  const lines = useSenderLines()
  const kinds: SenderLine['kind'][] | undefined = kind === 'normal' ? undefined : ['service']
  useEffect(() => {
    const service = lines.data?.filter((l) => l.kind === 'service').sort((a, b) => Number(b.is_default) - Number(a.is_default))
    if (!value && service?.length) onChange(service[0].number)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- preselect once the lines are loaded
  }, [lines.data, value])
  return (
    <SenderPicker value={value} onChange={(l) => onChange(l.number)} kinds={kinds} footerNote={patternFooterNote}
      empty={<Text fontSize="sm" color="fg.muted" data-testid="pattern-shared-line">حساب شما خط خدماتی ندارد؛ پیامک از خط خدماتی مشترک سامانه و بدون «لغو۱۱» ارسال می‌شود.</Text>} />
  )
}

/** The "send this pattern" form: the line, then one recipient with values, or a pasted list (up to 1,000 lines). */
export function SendPatternForm({ code, kind, text, variables }: { code: string; kind: string; text: string; variables: Variable[] }) {
  const navigate = useNavigate()
  const [sender, setSender] = useState('')
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
    const base = { code, ...(sender ? { sender } : {}) }
    const input: SendInput = mode === 'single' ? { ...base, recipient: mobile, values } : { ...base, recipients: parsed.recipients }
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
      <PatternLine kind={kind} value={sender} onChange={setSender} />
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
