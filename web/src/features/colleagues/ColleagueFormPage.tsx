import { Button, Card, Heading, HStack, Input, NativeSelect, SimpleGrid, Text } from '@chakra-ui/react'
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { EmptyState, ErrorState, LoadingState } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { useRoles, useSaveColleague } from './api'
import { MESSAGES, nationalIdError, normalMobile } from './model'
import { ErrorAlert, fieldError, FormField, FormStack, generalError, toastOk } from './ui'

const FIELDS = ['name', 'mobile', 'national_id', 'role_id', 'username']

/** /colleagues/create: invite a colleague (name, mobile, national id, role); they get an SMS code. */
export default function ColleagueFormPage() {
  const navigate = useNavigate()
  const roles = useRoles({ page: 1, limit: 100 })
  if (roles.isPending) return <LoadingState />
  if (!roles.data) return <ErrorState onRetry={() => void roles.refetch()} />
  if (!roles.data.rows.length) {
    return (
      <EmptyState
        title="هنوز نقش دسترسی ندارید"
        description="ابتدا یک نقش دسترسی بسازید، سپس همکار اضافه کنید."
        action={<Button size="sm" colorPalette="brand" onClick={() => navigate('/colleagues/create-access')}>ایجاد نقش دسترسی</Button>}
        data-testid="no-role"
      />
    )
  }
  return <InviteForm roles={roles.data.rows} />
}

function InviteForm({ roles }: { roles: Array<{ id: number; name: string }> }) {
  const navigate = useNavigate()
  const save = useSaveColleague()
  const [form, setForm] = useState({ name: '', mobile: '', national_id: '', role_id: '', username: '' })
  const [touched, setTouched] = useState(false)
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
  const local: Record<string, string | null> = {
    name: form.name.trim() ? null : MESSAGES.required,
    mobile: normalMobile(form.mobile) ? null : MESSAGES.mobile,
    national_id: nationalIdError(form.national_id),
    role_id: form.role_id ? null : MESSAGES.role,
  }
  const err = (k: string) => (touched && local[k]) || fieldError(save.error, k)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.values(local).some(Boolean)) return
    save.mutate(
      { name: form.name.trim(), mobile: normalMobile(form.mobile) ?? '', national_id: form.national_id, role_id: Number(form.role_id),
        ...(form.username.trim() ? { username: form.username.trim() } : {}) },
      { onSuccess: (c) => { toastOk('همکار دعوت شد؛ کد دعوت پیامک شد'); navigate(`/colleagues/${c.id}`) } },
    )
  }

  return (
    <Card.Root variant="outline" rounded="xl">
      <Card.Body>
        <FormStack gap="5" onSubmit={submit} noValidate data-testid="colleague-form">
          <Heading size="md">افزودن همکار</Heading>
          <Text fontSize="sm" color="fg.muted">
            همکار تا نخستین ورود «در انتظار تأیید» است؛ کد دعوت به موبایل او پیامک می‌شود و با آن رمز عبور خود را تعیین می‌کند.
          </Text>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <FormField label="نام و نام خانوادگی" required error={err('name')}>
              <Input value={form.name} onChange={set('name')} data-testid="colleague-name" />
            </FormField>
            <FormField label="شماره موبایل" required error={err('mobile')}>
              <Input value={form.mobile} onChange={set('mobile')} dir="ltr" inputMode="tel" placeholder="۰۹۱۲۰۰۰۰۰۰۰" data-testid="colleague-mobile" />
            </FormField>
            <FormField label="کد ملی" required error={err('national_id')}>
              <Input value={form.national_id} onChange={set('national_id')} dir="ltr" inputMode="numeric" maxLength={10} data-testid="colleague-national-id" />
            </FormField>
            <FormField label="نقش دسترسی" required error={err('role_id')}>
              <NativeSelect.Root>
                <NativeSelect.Field value={form.role_id} onChange={set('role_id')} data-testid="colleague-role">
                  <option value="">انتخاب کنید</option>
                  {roles.map((r) => <option key={r.id} value={r.id}>{toPersianDigits(r.name)}</option>)}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
            <FormField label="نام کاربری" helper="اختیاری؛ اگر خالی بماند شماره موبایل نام کاربری می‌شود" error={err('username')}>
              <Input value={form.username} onChange={set('username')} dir="ltr" data-testid="colleague-username" />
            </FormField>
          </SimpleGrid>
          {generalError(save.error, FIELDS) && <ErrorAlert error={save.error} />}
          <HStack justify="flex-end" gap="2">
            <Button variant="outline" onClick={() => navigate('/colleagues')}>انصراف</Button>
            <Button type="submit" colorPalette="brand" loading={save.isPending} data-testid="colleague-save">ارسال دعوت</Button>
          </HStack>
        </FormStack>
      </Card.Body>
    </Card.Root>
  )
}
