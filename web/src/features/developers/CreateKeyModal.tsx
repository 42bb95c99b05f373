import { Alert, Button, Card, Checkbox, HStack, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { FormField } from '../../components/FormField'
import { JalaliDateInput } from '../../components/JalaliDateInput'
import { Modal } from '../../components/Overlays'
import { SecretOnce } from '../../components/SecretOnce'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState, LoadingState } from '../../components/States'
import { isApiError } from '../../lib/api'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { useCreateKey, useScopes, useSendKeyOTP, type CreatedKey } from './api'
import { groupScopes, parseIPs } from './model'

const FIELDS = ['title', 'allowed_ips', 'expires_at', 'scopes'] as const
const fieldError = (err: unknown, f: string) => (isApiError(err) ? err.fieldError(f) : undefined)

/** The create-key modal: the form, the one-time code texted to the user, then the secret shown once. */
export function CreateKeyModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [created, setCreated] = useState<CreatedKey | null>(null)
  const close = () => {
    setCreated(null)
    onClose()
  }
  return (
    <Modal open={open} onClose={close} title={created ? 'کلید API ساخته شد' : 'ساخت کلید API'} size="lg" closeOnInteractOutside={false}>
      {created ? <SecretOnce secret={created.secret} noun="کلید" onDone={close} testId="apikey" /> : <KeyForm onCreated={setCreated} onCancel={close} />}
    </Modal>
  )
}

function KeyForm({ onCreated, onCancel }: { onCreated: (k: CreatedKey) => void; onCancel: () => void }) {
  const scopes = useScopes()
  const otp = useSendKeyOTP()
  const create = useCreateKey()
  const [title, setTitle] = useState('')
  const [ips, setIPs] = useState('')
  const [expires, setExpires] = useState<Date | null>(null)
  const [chosen, setChosen] = useState<string[]>([])
  const [code, setCode] = useState('')
  const [sandbox, setSandbox] = useState(false)
  const [touched, setTouched] = useState(false)
  const titleErr = title.trim() ? null : 'عنوان کلید را وارد کنید'
  const scopeErr = chosen.length ? null : 'دست‌کم یک دسترسی انتخاب کنید'
  const toggle = (k: string, on: boolean) => setChosen((c) => (on ? [...new Set([...c, k])] : c.filter((x) => x !== k)))
  const step = otp.data && !FIELDS.some((f) => fieldError(create.error, f)) ? 'code' : 'form'

  if (scopes.isPending) return <LoadingState />
  if (!scopes.data) return <ErrorState description={undefined} onRetry={() => void scopes.refetch()} />

  const askCode = () => {
    setTouched(true)
    if (titleErr || scopeErr) return
    if (otp.data) create.reset()
    else otp.mutate()
  }
  const backToForm = () => {
    setCode('')
    create.reset()
    otp.reset()
  }
  const submit = () =>
    create.mutate(
      { title: title.trim(), allowed_ips: parseIPs(ips), expires_at: expires ? endOfDay(expires).toISOString() : null, scopes: chosen,
        otp_token: otp.data?.otp_token ?? '', code: toLatinDigits(code.trim()), sandbox },
      { onSuccess: onCreated },
    )

  if (step === 'code') {
    return (
      <Stack gap="4" data-testid="apikey-otp-step">
        <Text>کد تایید به شماره <bdi>{toPersianDigits(otp.data?.mobile_hint ?? '')}</bdi> پیامک شد.</Text>
        <FormField label="کد تایید" required error={fieldError(create.error, 'code')}>
          <Input value={code} inputMode="numeric" maxLength={6} dir="ltr" onChange={(e) => setCode(e.target.value)} data-testid="apikey-code" />
        </FormField>
        {create.error && !fieldError(create.error, 'code') ? <ErrorBox error={create.error} /> : null}
        <HStack justify="flex-end" gap="2">
          {/* Back to the form as filled in: leaving the code step must not lose the title, IPs and scopes. */}
          <Button variant="outline" onClick={backToForm} disabled={create.isPending} data-testid="apikey-code-back">بازگشت به فرم</Button>
          <Button colorPalette="brand" loading={create.isPending} disabled={!code.trim()} onClick={submit} data-testid="apikey-create">
            ساخت کلید
          </Button>
        </HStack>
      </Stack>
    )
  }
  return (
    <Stack gap="4" data-testid="apikey-form">
      <FormField label="عنوان" required error={(touched && titleErr) || fieldError(create.error, 'title')}>
        <Input value={title} maxLength={100} onChange={(e) => setTitle(e.target.value)} data-testid="apikey-title" />
      </FormField>
      <FormField label="نشانی‌های IP مجاز" helper="هر نشانی یا بازه (CIDR) در یک خط؛ خالی یعنی همه نشانی‌ها" error={fieldError(create.error, 'allowed_ips')}>
        <Textarea value={ips} dir="ltr" rows={3} onChange={(e) => setIPs(e.target.value)} placeholder="192.168.1.10&#10;10.0.0.0/8" data-testid="apikey-ips" />
      </FormField>
      <Checkbox.Root checked={sandbox} onCheckedChange={(e) => setSandbox(e.checked === true)} data-testid="apikey-sandbox">
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>کلید آزمایشی (sandbox): ارسال‌ها هزینه‌ای ندارند و فقط به شبیه‌ساز اپراتور می‌رسند، نه به گوشی واقعی؛ هر حساب یک کلید آزمایشی</Checkbox.Label>
      </Checkbox.Root>
      <FormField label="تاریخ انقضا (اختیاری)" error={fieldError(create.error, 'expires_at')}>
        <JalaliDateInput value={expires} onChange={setExpires} disablePast aria-label="تاریخ انقضا" />
      </FormField>
      <Stack gap="2">
        <Text fontWeight="medium">دسترسی‌های کلید</Text>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
          {groupScopes(scopes.data ?? []).map((g) => (
            <Card.Root key={g.key} variant="subtle" rounded="lg">
              <Card.Body gap="2" p="3">
                <Text fontWeight="semibold" fontSize="sm">{g.title}</Text>
                {g.items.map((s) => (
                  <Checkbox.Root key={s.key} checked={chosen.includes(s.key)} onCheckedChange={(e) => toggle(s.key, e.checked === true)}
                    colorPalette="brand" size="sm" data-testid={`scope-${s.key}`}>
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{s.title}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
        {((touched && scopeErr) || fieldError(create.error, 'scopes')) && (
          <Text color="fg.error" fontSize="sm">{(touched && scopeErr) || fieldError(create.error, 'scopes')}</Text>
        )}
      </Stack>
      {otp.error ? <ErrorBox error={otp.error} /> : null}
      <HStack justify="flex-end" gap="2">
        <Button variant="outline" onClick={onCancel}>انصراف</Button>
        <Button colorPalette="brand" loading={otp.isPending} onClick={askCode} data-testid="apikey-send-otp">
          {otp.data ? 'ادامه' : 'دریافت کد تایید'}
        </Button>
      </HStack>
    </Stack>
  )
}

function ErrorBox({ error }: { error: unknown }) {
  return (
    <Alert.Root status="error" rounded="lg">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>
          <ServerMessage error={error} />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}

/** A key expires at the end of its chosen day. */
const endOfDay = (d: Date) => new Date(d.getTime() + 24 * 3600_000 - 1)
