import { Badge, Button, Field, Heading, HStack, Input, Stack } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { PasswordInput } from '../../components/PasswordInput'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits } from '../../lib/digits'
import { formatJalaliDate, formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { adminApi, useAdminMutation, useStaffMe, useStaffUsers, type StaffUser, type StaffUserInput } from './api'
import { displayMobile } from '../../lib/mobile'

/**
 * /admin/staff: the staff users; add one, deactivate or reactivate (a deactivated user's sessions end at once),
 * give or take the operations page (staff.operations).
 */
export default function StaffPage() {
  const list = useUrlListState()
  const { data, isPending, isError, refetch } = useStaffUsers({ page: list.page, limit: list.limit })
  const { data: me } = useStaffMe(true)
  const [adding, setAdding] = useState(false)
  const status = useAdminMutation((u: StaffUser) => adminApi.setStaffStatus(u.id, u.status === 'active' ? 'disabled' : 'active'))
  const operations = useAdminMutation((u: StaffUser) => adminApi.setStaffOperations(u.id, !u.operations))

  const columns: DataTableColumn<StaffUser>[] = [
    { key: 'username', title: 'نام کاربری', render: (u) => <bdi>{u.username}</bdi> },
    { key: 'name', title: 'نام' },
    { key: 'mobile', title: 'موبایل', hideOnMobile: true, render: (u) => <bdi>{displayMobile(u.mobile)}</bdi> },
    { key: 'last_login', title: 'آخرین ورود', hideOnMobile: true, render: (u) => (u.last_login ? formatJalaliDateTime(u.last_login) : '—') },
    { key: 'created_at', title: 'ایجاد', hideOnMobile: true, render: (u) => formatJalaliDate(u.created_at) },
    {
      key: 'status', title: 'وضعیت',
      render: (u) => <Badge colorPalette={u.status === 'active' ? 'green' : 'red'}>{u.status === 'active' ? 'فعال' : 'غیرفعال'}</Badge>,
    },
    {
      key: 'operations', title: 'پایش عملیات', render: (u) => (
        <HStack gap="2" justify={{ base: 'flex-end', md: 'flex-start' }}>
          <Badge colorPalette={u.operations ? 'green' : 'gray'}>{u.operations ? 'دارد' : 'ندارد'}</Badge>
          <Button size="xs" variant="outline" loading={operations.isPending && operations.variables?.id === u.id}
            onClick={() => operations.mutate(u)} aria-label={`${u.operations ? 'گرفتن' : 'دادن'} دسترسی پایش عملیات ${u.username}`}>
            {u.operations ? 'گرفتن دسترسی' : 'دادن دسترسی'}
          </Button>
        </HStack>
      ),
    },
    {
      key: 'actions', title: 'اقدام', render: (u) =>
        u.id === me?.id ? (
          <Badge variant="outline">شما</Badge>
        ) : (
          <Button size="xs" variant="outline" colorPalette={u.status === 'active' ? 'red' : 'green'}
            loading={status.isPending && status.variables?.id === u.id} onClick={() => status.mutate(u)}>
            {u.status === 'active' ? 'غیرفعال‌سازی' : 'فعال‌سازی'}
          </Button>
        ),
    },
  ]
  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading size="lg">کاربران پشتیبانی</Heading>
        <Button colorPalette="brand" size="sm" onClick={() => setAdding(true)}>افزودن کاربر</Button>
      </HStack>
      <DataTable caption="کاربران پشتیبانی" columns={columns} rows={data?.rows} total={data?.meta.total} rowKey={(u) => u.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} emptyText="کاربری ثبت نشده است" />
      {adding && <AddStaffDialog onClose={() => setAdding(false)} />}
    </Stack>
  )
}

const EMPTY: StaffUserInput = { username: '', name: '', mobile: '', password: '' }

const FIELDS: { key: keyof StaffUserInput; label: string; ltr?: boolean }[] = [
  { key: 'username', label: 'نام کاربری', ltr: true },
  { key: 'name', label: 'نام' },
  { key: 'mobile', label: 'موبایل (کد ورود دومرحله‌ای به آن پیامک می‌شود)', ltr: true },
]

function AddStaffDialog({ onClose }: { onClose: () => void }) {
  const [form, setForm] = useState(EMPTY)
  const add = useAdminMutation((b: StaffUserInput) => adminApi.addStaffUser(b))
  const err = (f: string) => (add.error instanceof ApiError ? add.error.fieldError(f) : undefined)
  const set = (k: keyof StaffUserInput) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value })
  return (
    <Modal open onClose={onClose} title="افزودن کاربر پشتیبانی" closeOnInteractOutside={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" loading={add.isPending}
            onClick={() => add.mutate({ ...form, mobile: toLatinDigits(form.mobile) }, { onSuccess: onClose })}>ثبت</Button>
        </HStack>
      }>
      <Stack gap="4">
        {FIELDS.map((f) => (
          <Field.Root key={f.key} required={f.key !== 'name'} invalid={!!err(f.key)}>
            <Field.Label>{f.label}</Field.Label>
            <Input name={f.key} value={form[f.key]} onChange={set(f.key)} dir={f.ltr ? 'ltr' : undefined} />
            <Field.ErrorText>{err(f.key)}</Field.ErrorText>
          </Field.Root>
        ))}
        <Field.Root required invalid={!!err('password')}>
          <Field.Label>رمز عبور اولیه</Field.Label>
          <PasswordInput name="password" value={form.password} onChange={set('password')} autoComplete="new-password" />
          <Field.ErrorText>{err('password')}</Field.ErrorText>
          <Field.HelperText>کاربر با این رمز و کد پیامک‌شده به موبایلش وارد می‌شود.</Field.HelperText>
        </Field.Root>
      </Stack>
    </Modal>
  )
}
