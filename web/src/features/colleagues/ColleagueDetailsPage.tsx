import { Button, Card, DataList, Heading, HStack, NativeSelect, Stack, Text, Wrap } from '@chakra-ui/react'
import { useState } from 'react'
import { useParams } from 'react-router'
import { ErrorState, LoadingState } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDate } from '../../lib/jalali'
import { useColleague, usePermissionList, useResendInvite, useRoles, useSaveColleague, useSetActive, type Colleague } from './api'
import { StatusChip, toastFail, toastOk } from './ui'
import { displayMobile } from '../../lib/mobile'

/** /colleagues/:id: a colleague's details, role change, deactivate and reactivate, a new invitation code. */
export default function ColleagueDetailsPage() {
  const { id = '' } = useParams()
  const q = useColleague(id)
  if (q.isPending) return <LoadingState />
  if (!q.data) return <ErrorState onRetry={() => void q.refetch()} />
  return <Details c={q.data} />
}

function Details({ c }: { c: Colleague }) {
  const perms = usePermissionList()
  const titles = new Map((perms.data ?? []).map((p) => [p.key, p.title]))
  const setActive = useSetActive()
  const resend = useResendInvite()
  const rows: Array<[string, string]> = [
    ['نام کاربری', c.username],
    ['موبایل', displayMobile(c.mobile)],
    ['کد ملی', toPersianDigits(c.national_id || '—')],
    ['تاریخ دعوت', formatJalaliDate(c.created_at)],
  ]
  const toggle = () =>
    setActive.mutate({ id: c.id, active: c.status === 'disabled' }, {
      onSuccess: () => toastOk(c.status === 'disabled' ? 'همکار دوباره فعال شد' : 'همکار غیرفعال شد و نشست‌هایش بسته شد'),
      onError: toastFail,
    })
  return (
    <Stack gap="4">
      <Card.Root variant="outline" rounded="xl">
        <Card.Body gap="4">
          <HStack justify="space-between" wrap="wrap" gap="3">
            <HStack gap="3">
              <Heading size="md">{toPersianDigits(c.name)}</Heading>
              <StatusChip status={c.status} />
            </HStack>
            <HStack gap="2">
              {c.status === 'pending' && (
                <Button size="sm" variant="outline" loading={resend.isPending}
                  onClick={() => resend.mutate(c.id, { onSuccess: () => toastOk('کد دعوت تازه پیامک شد'), onError: toastFail })}>
                  ارسال دوباره دعوت
                </Button>
              )}
              <Button size="sm" colorPalette={c.status === 'disabled' ? 'green' : 'red'} variant="outline" loading={setActive.isPending}
                onClick={toggle} data-testid="colleague-toggle">
                {c.status === 'disabled' ? 'فعال‌سازی دوباره' : 'غیرفعال‌سازی'}
              </Button>
            </HStack>
          </HStack>
          <DataList.Root orientation="horizontal" size="md">
            {rows.map(([label, value]) => (
              <DataList.Item key={label}>
                <DataList.ItemLabel>{label}</DataList.ItemLabel>
                <DataList.ItemValue><bdi>{value}</bdi></DataList.ItemValue>
              </DataList.Item>
            ))}
          </DataList.Root>
        </Card.Body>
      </Card.Root>
      <Card.Root variant="outline" rounded="xl">
        <Card.Body gap="3">
          <Heading size="sm">نقش دسترسی</Heading>
          <RolePicker c={c} />
          <Wrap gap="2">
            {c.permissions.map((p) => (
              <Text key={p} fontSize="xs" bg="bg.muted" px="2" py="1" rounded="md">{titles.get(p) ?? p}</Text>
            ))}
          </Wrap>
        </Card.Body>
      </Card.Root>
    </Stack>
  )
}

function RolePicker({ c }: { c: Colleague }) {
  const roles = useRoles({ page: 1, limit: 100 })
  const save = useSaveColleague()
  const [roleId, setRoleId] = useState(String(c.role_id || ''))
  return (
    <HStack gap="2" maxW="md">
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={roleId} onChange={(e) => setRoleId(e.target.value)} aria-label="نقش دسترسی">
          {(roles.data?.rows ?? []).map((r) => <option key={r.id} value={r.id}>{toPersianDigits(r.name)}</option>)}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Button size="sm" colorPalette="brand" disabled={roleId === String(c.role_id)} loading={save.isPending}
        onClick={() => save.mutate({ id: c.id, name: c.name, national_id: c.national_id, role_id: Number(roleId) },
          { onSuccess: () => toastOk('نقش همکار تغییر کرد'), onError: toastFail })}>
        ذخیره نقش
      </Button>
    </HStack>
  )
}
