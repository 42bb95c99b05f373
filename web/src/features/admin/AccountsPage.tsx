import { Badge, Button, Field, Heading, HStack, Input, Stack, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { AccountDrawer } from './AccountDrawer'
import { adminApi, useAdminAccounts, useAdminMutation, type AdminAccount } from './api'
import { displayMobile } from '../../lib/mobile'

/** 98912… as the 0912… people read. */

const FILTERS: TableFilter[] = [{ key: 'q', title: 'جستجو', type: 'search', placeholder: 'نام، نام کاربری، موبایل یا شناسه' }]

/** /admin/accounts: search accounts, adjust credit, suspend or activate, open a customer's panel. */
export default function AccountsPage() {
  const list = useUrlListState()
  const f = list.filters(allFilterKeys(FILTERS))
  const { data, isPending, isError, refetch } = useAdminAccounts({ page: list.page, limit: list.limit, q: f.q })
  const [crediting, setCrediting] = useState<AdminAccount | null>(null)
  const [opened, setOpened] = useState<AdminAccount | null>(null)
  const status = useAdminMutation((a: AdminAccount) => adminApi.setStatus(a.id, a.status === 'active' ? 'suspended' : 'active'))
  const impersonate = useAdminMutation((a: AdminAccount) => adminApi.impersonate(a.id))

  const columns: DataTableColumn<AdminAccount>[] = [
    { key: 'id', title: 'شناسه', width: '80px', render: (a) => <bdi>{toPersianDigits(a.id)}</bdi> },
    { key: 'name', title: 'نام حساب' },
    { key: 'username', title: 'نام کاربری', render: (a) => <bdi>{a.username}</bdi> },
    { key: 'mobile', title: 'موبایل', hideOnMobile: true, render: (a) => <bdi>{displayMobile(a.mobile)}</bdi> },
    { key: 'balance', title: 'اعتبار', render: (a) => formatRial(a.balance) },
    { key: 'created_at', title: 'عضویت', hideOnMobile: true, render: (a) => formatJalaliDate(a.created_at) },
    { key: 'status', title: 'وضعیت', render: (a) => <Badge colorPalette={a.status === 'active' ? 'green' : 'red'}>{a.status === 'active' ? 'فعال' : 'تعلیق'}</Badge> },
    {
      key: 'actions', title: 'اقدام', render: (a) => (
        <HStack gap="1" wrap="wrap">
          <Button size="xs" variant="outline" onClick={() => setCrediting(a)}>تغییر اعتبار</Button>
          <Button size="xs" variant="outline" onClick={() => setOpened(a)}>خطوط و تعرفه</Button>
          <Button size="xs" variant="outline" colorPalette={a.status === 'active' ? 'red' : 'green'} onClick={() => status.mutate(a)}>
            {a.status === 'active' ? 'تعلیق' : 'فعال‌سازی'}
          </Button>
          <Button size="xs" variant="ghost" onClick={() => impersonate.mutate(a, { onSuccess: (c) => window.open(c.path, '_blank', 'noopener') })}>
            ورود به پنل مشتری
          </Button>
        </HStack>
      ),
    },
  ]
  return (
    <Stack gap="4">
      <Heading size="lg">حساب‌های کاربری</Heading>
      <DataTable caption="حساب‌ها" columns={columns} rows={data?.rows} total={data?.meta.total} rowKey={(a) => a.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} filters={FILTERS} emptyText="حسابی یافت نشد" />
      {crediting && <CreditDialog account={crediting} onClose={() => setCrediting(null)} />}
      {opened && <AccountDrawer account={opened} onClose={() => setOpened(null)} />}
    </Stack>
  )
}

function CreditDialog({ account, onClose }: { account: AdminAccount; onClose: () => void }) {
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  const adjust = useAdminMutation((b: { amount: number; reason: string }) => adminApi.adjustCredit(account.id, b))
  const err = (f: string) => (adjust.error instanceof ApiError ? adjust.error.fieldError(f) : undefined)
  return (
    <Modal open onClose={onClose} title={`تغییر اعتبار ${account.name}`} closeOnInteractOutside={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" loading={adjust.isPending}
            onClick={() => adjust.mutate({ amount: Number(toLatinDigits(amount)) || 0, reason }, { onSuccess: onClose })}>ثبت</Button>
        </HStack>
      }>
      <Stack gap="4">
        <Field.Root required invalid={!!err('amount')}>
          <Field.Label>مبلغ (ریال؛ منفی برای کسر)</Field.Label>
          <Input value={amount} onChange={(e) => setAmount(e.target.value)} dir="ltr" inputMode="numeric" />
          <Field.ErrorText>{err('amount')}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={!!err('reason')}>
          <Field.Label>توضیح</Field.Label>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} />
          <Field.ErrorText>{err('reason')}</Field.ErrorText>
        </Field.Root>
      </Stack>
    </Modal>
  )
}
