import { Badge, Button, Card, HStack, Heading, Stack, Text, Wrap } from '@chakra-ui/react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, type DataTableColumn, pagedQueryProps } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDate } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useApiKeys, useDeleteKey, useScopes, type ApiKey } from './api'
import { CreateKeyModal } from './CreateKeyModal'

/** /developers/api-keys: the account's API keys (spec §7 Developers): list, create behind a texted code, delete. */
export default function ApiKeysPage() {
  const list = useUrlListState()
  const q = useApiKeys({ page: list.page, limit: list.limit })
  const scopes = useScopes()
  const remove = useDeleteKey()
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<ApiKey | null>(null)
  const scopeTitle = (k: string) => scopes.data?.find((s) => s.key === k)?.title ?? k
  const columns: DataTableColumn<ApiKey>[] = [
    {
      key: 'title',
      title: 'عنوان',
      render: (r) => (
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium">{toPersianDigits(r.title)}</Text>
          {r.sandbox && <Badge colorPalette="orange" variant="subtle" size="sm" data-testid={`apikey-sandbox-${r.id}`}>آزمایشی (sandbox)</Badge>}
        </HStack>
      ),
    },
    { key: 'prefix', title: 'شناسه کلید', render: (r) => <bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="xs">{r.prefix}…</Text></bdi> },
    {
      key: 'allowed_ips',
      title: 'IPهای مجاز',
      hideOnMobile: true,
      render: (r) =>
        r.allowed_ips.length ? (
          <Stack gap="0" align="flex-start">
            {r.allowed_ips.map((ip) => (
              <Text key={ip} fontFamily="mono" fontSize="xs">
                <bdi dir="ltr">{ip}</bdi>
              </Text>
            ))}
          </Stack>
        ) : (
          'همه نشانی‌ها'
        ),
    },
    {
      key: 'scopes',
      title: 'دسترسی‌ها',
      hideOnMobile: true,
      render: (r) => (
        <Wrap gap="1">
          {r.scopes.map((s) => (
            <Badge key={s} variant="subtle" size="sm">{scopeTitle(s)}</Badge>
          ))}
        </Wrap>
      ),
    },
    { key: 'expires_at', title: 'انقضا', render: (r) => (r.expires_at ? formatJalaliDate(r.expires_at) : 'بدون انقضا') },
    { key: 'last_used_at', title: 'آخرین استفاده', hideOnMobile: true, render: (r) => (r.last_used_at ? formatJalaliDate(r.last_used_at) : '—') },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => (
        <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setDeleting(r)} data-testid={`apikey-delete-${r.id}`}>
          حذف
        </Button>
      ),
    },
  ]
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'کلید حذف شد و دیگر پذیرفته نمی‌شود' })
        setDeleting(null)
      },
    })
  return (
    <Card.Root variant="outline" rounded="xl">
      <Card.Body gap="4">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Stack gap="1">
            <Heading size="md">کلیدهای API</Heading>
            <Text fontSize="sm" color="fg.muted">
              با کلید API، برنامه شما به جای حساب شما و فقط در دسترسی‌های کلید درخواست می‌فرستد؛ کلید را با سرآیند <bdi dir="ltr">Authorization: Bearer</bdi> یا <bdi dir="ltr">apikey</bdi> بفرستید.
            </Text>
          </Stack>
          <Button size="sm" colorPalette="brand" onClick={() => setCreating(true)} data-testid="apikey-new">
            <PlusIcon /> کلید جدید
          </Button>
        </HStack>
        <DataTable
          caption="کلیدهای API"
          columns={columns}
          {...pagedQueryProps(q)}
          rowKey={(r) => r.id}
          emptyText="هنوز کلید API نساخته‌اید"
        />
      </Card.Body>
      <CreateKeyModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف کلید API"
        confirmLabel="حذف کلید"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="apikey-delete-confirm"
      >
        <Text>
          کلید «{toPersianDigits(deleting?.title ?? '')}» حذف شود؟ برنامه‌هایی که با آن کار می‌کنند از همین لحظه پاسخ خطا می‌گیرند.
        </Text>
      </ConfirmDialog>
    </Card.Root>
  )
}
