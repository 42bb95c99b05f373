import { Button, Card, HStack, Heading, Stack, Tabs, Text } from '@chakra-ui/react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn, pagedQueryProps } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { useTabParam } from '../../lib/tabs'
import { useUrlListState } from '../../lib/urlState'
import { useColleagues, useCopyRole, useDeleteRole, useRoles, type Colleague, type Role } from './api'
import { StatusChip, toastFail, toastOk } from './ui'
import { displayMobile } from '../../lib/mobile'

const TABS = ['همکاران', 'نقش‌های دسترسی'] as const

/** /colleagues: the account's colleagues (status chips) and access roles (spec §6). */
export default function ColleaguesPage() {
  const [tab, setTab] = useTabParam(TABS.length)
  const navigate = useNavigate()
  return (
    <Card.Root variant="outline" rounded="xl">
      <Card.Body gap="4">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Stack gap="1">
            <Heading size="md">همکاران و نقش‌های دسترسی</Heading>
            <Text fontSize="sm" color="fg.muted">
              ابتدا نقش دسترسی بسازید، سپس همکار را با یکی از نقش‌ها دعوت کنید؛ مسئولیت کارهای همکاران با مالک حساب است.
            </Text>
          </Stack>
          <HStack gap="2">
            <Button size="sm" variant="outline" onClick={() => navigate('/colleagues/create-access')} data-testid="role-new">
              <PlusIcon /> نقش جدید
            </Button>
            <Button size="sm" colorPalette="brand" onClick={() => navigate('/colleagues/create')} data-testid="colleague-new">
              <PlusIcon /> افزودن همکار
            </Button>
          </HStack>
        </HStack>
        <Tabs.Root value={String(tab)} onValueChange={(e) => setTab(Number(e.value))} colorPalette="brand" variant="line" lazyMount unmountOnExit>
          <Tabs.List mb="2">
            {TABS.map((t, i) => (
              <Tabs.Trigger key={t} value={String(i)} data-testid={`colleagues-tab-${i}`}>
                {t}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="0">
            <ColleagueList />
          </Tabs.Content>
          <Tabs.Content value="1">
            <RoleList />
          </Tabs.Content>
        </Tabs.Root>
      </Card.Body>
    </Card.Root>
  )
}

function ColleagueList() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const q = useColleagues({ page: list.page, limit: list.limit })
  const columns: DataTableColumn<Colleague>[] = [
    { key: 'name', title: 'نام', render: (r) => <Text fontWeight="medium">{toPersianDigits(r.name)}</Text> },
    { key: 'mobile', title: 'موبایل', render: (r) => <bdi>{displayMobile(r.mobile)}</bdi> },
    { key: 'username', title: 'نام کاربری', render: (r) => <bdi>{r.username}</bdi>, hideOnMobile: true },
    { key: 'role_name', title: 'نقش دسترسی', render: (r) => (r.role_name ? toPersianDigits(r.role_name) : '—') },
    { key: 'status', title: 'وضعیت', render: (r) => <StatusChip status={r.status} /> },
    { key: 'created_at', title: 'تاریخ دعوت', render: (r) => formatJalaliDate(r.created_at), hideOnMobile: true },
  ]
  return (
    <DataTable
      caption="همکاران"
      columns={columns}
      {...pagedQueryProps(q)}
      rowKey={(r) => r.id}
      emptyText="هنوز همکاری اضافه نکرده‌اید"
      onRowClick={(r) => navigate(`/colleagues/${r.id}`)}
    />
  )
}

function RoleList() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const q = useRoles({ page: list.page, limit: list.limit })
  const copy = useCopyRole()
  const remove = useDeleteRole()
  const columns: DataTableColumn<Role>[] = [
    { key: 'name', title: 'نام نقش', render: (r) => <Text fontWeight="medium">{toPersianDigits(r.name)}</Text> },
    { key: 'permissions', title: 'تعداد دسترسی‌ها', render: (r) => formatNumber(r.permissions.length) },
    { key: 'colleagues', title: 'همکاران', render: (r) => formatNumber(r.colleagues) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => (
        <HStack gap="1" justify="flex-end" onClick={(e) => e.stopPropagation()}>
          <Button size="xs" variant="ghost" onClick={() => navigate(`/colleagues/update-access/${r.id}`)}>ویرایش</Button>
          <Button size="xs" variant="ghost" loading={copy.isPending && copy.variables === r.id}
            onClick={() => copy.mutate(r.id, { onSuccess: () => toastOk('کپی نقش ساخته شد'), onError: toastFail })}>
            کپی
          </Button>
          <Button size="xs" variant="ghost" colorPalette="red" data-testid={`role-delete-${r.id}`}
            onClick={() => window.confirm('این نقش حذف شود؟') && remove.mutate(r.id, { onSuccess: () => toastOk('نقش حذف شد'), onError: toastFail })}>
            حذف
          </Button>
        </HStack>
      ),
    },
  ]
  return (
    <DataTable
      caption="نقش‌های دسترسی"
      columns={columns}
      {...pagedQueryProps(q)}
      rowKey={(r) => r.id}
      emptyText="هنوز نقشی نساخته‌اید"
      onRowClick={(r) => navigate(`/colleagues/update-access/${r.id}`)}
    />
  )
}
