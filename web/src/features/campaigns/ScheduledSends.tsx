import { Badge, Box, Button, HStack, Link, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink } from 'react-router'
import type { DataTableColumn } from '../../components/DataTable'
import { JalaliDateTimeInput } from '../../components/JalaliDateInput'
import { MessageEditor } from '../../components/MessageEditor'
import { Modal } from '../../components/Overlays'
import { StopIcon } from '../../components/outlineIcons'
import { formatNumber, formatRial, relativeTime } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { ServerMessage } from '../../components/ServerMessage'
import { sendTypeLabel } from '../../lib/statuses'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { EditIcon } from '../../components/actionIcons'
import { earliestSendAt, sendAtError } from '../../lib/schedule'
import { useCancelScheduled, useScheduledSends, useUpdateScheduled, type ScheduledSend } from './api'
import { actionsColumn, PagedTable } from './ui'
import { allows, useAcl } from '../../lib/acl'

const URL_OPTS = { pageKey: 'page', limitKey: 'limit' }

function EditScheduled({ row, onClose }: { row: ScheduledSend; onClose: () => void }) {
  // «درج متن آماده» reads the predefined messages: only for roles that may.
  const canInsert = allows(useAcl().data, 'predefined.view')
  const [sendAt, setSendAt] = useState<Date | null>(new Date(row.send_at))
  const [text, setText] = useState(row.text ?? '')
  const [tried, setTried] = useState(false)
  const update = useUpdateScheduled()
  const perRowText = row.type === 'peer_to_peer'
  const atError = tried ? sendAtError(sendAt) : undefined
  const textError = tried && !perRowText && !text.trim() ? 'متن پیامک را وارد کنید' : undefined
  const save = () => {
    setTried(true)
    if (sendAtError(sendAt) || (!perRowText && !text.trim()) || !sendAt) return
    update.mutate(
      { id: row.id, send_at: sendAt.toISOString(), ...(perRowText ? {} : { text }) },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: 'ارسال زمان‌بندی‌شده به‌روزرسانی شد' })
          onClose()
        },
      },
    )
  }
  return (
    <Modal
      open
      onClose={onClose}
      title={`ویرایش ارسال ${toPersianDigits(String(row.id))}`}
      size="lg"
      closeOnInteractOutside={false}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            انصراف
          </Button>
          <Button colorPalette="brand" loading={update.isPending} onClick={save} data-testid="scheduled-save">
            ذخیره
          </Button>
        </>
      }
    >
      <Stack gap="5">
        <Stack gap="1">
          <Text fontWeight="medium">زمان ارسال</Text>
          <JalaliDateTimeInput value={sendAt} onChange={setSendAt} min={earliestSendAt()} invalid={!!atError} />
          <Text fontSize="xs" color={atError ? 'fg.error' : 'app.muted'}>
            {atError ?? 'به وقت تهران؛ دست‌کم ۵ دقیقه بعد از اکنون'}
          </Text>
        </Stack>
        {!perRowText && <MessageEditor value={text} onChange={setText} invalid={!!textError} errorText={textError} showCancel11={false} rows={4} predefined={canInsert} />}
        {update.isError && <ServerMessage error={update.error} color="fg.error" fontSize="sm" />}
      </Stack>
    </Modal>
  )
}

/** Sends waiting for their time (GET /send/scheduled): change the time or text, or cancel with a full refund. */
export function ScheduledSends() {
  const list = useUrlListState(URL_OPTS)
  const scheduled = useScheduledSends({ page: list.page, limit: list.limit })
  const [editing, setEditing] = useState<ScheduledSend | null>(null)
  const [cancelling, setCancelling] = useState<ScheduledSend | null>(null)
  const cancel = useCancelScheduled()

  const confirmCancel = () => {
    if (!cancelling) return
    const row = cancelling
    cancel.mutate(row.id, {
      onSuccess: () => {
        setCancelling(null)
        toaster.create({ type: 'success', title: 'ارسال زمان‌بندی‌شده لغو شد', description: `${formatRial(row.price)} به کیف پول شما بازگشت.` })
      },
    })
  }

  const columns: DataTableColumn<ScheduledSend>[] = [
    {
      key: 'id',
      title: 'شناسه',
      width: '90px',
      render: (r) => (
        <Link asChild color="brand.fg" fontWeight="semibold">
          <RouterLink to={`/reports/${r.id}`}>
            <bdi>{toPersianDigits(String(r.id))}</bdi>
          </RouterLink>
        </Link>
      ),
    },
    {
      key: 'type',
      title: 'نوع ارسال',
      render: (r) => (
        <HStack gap="1.5" justify={{ base: 'flex-end', md: 'flex-start' }}>
          <Text as="span">{sendTypeLabel(r.type)}</Text>
          {r.campaign_id !== null && r.campaign_id !== undefined && (
            <Badge size="sm" colorPalette="purple" variant="subtle">
              کمپین
            </Badge>
          )}
        </HStack>
      ),
    },
    { key: 'sender', title: 'خط ارسال', render: (r) => <bdi>{toPersianDigits(r.sender ?? '')}</bdi>, hideOnMobile: true },
    {
      key: 'text',
      title: 'متن',
      hideOnMobile: true,
      render: (r) => (
        <Text lineClamp={1} maxW="64" title={r.text}>
          {r.type === 'peer_to_peer' ? 'متن هر ردیف از فایل' : r.text}
        </Text>
      ),
    },
    { key: 'recipients', title: 'گیرندگان', align: 'end', render: (r) => formatNumber(r.recipients ?? 0) },
    { key: 'price', title: 'هزینه', align: 'end', render: (r) => <Text whiteSpace="nowrap">{formatRial(r.price ?? 0)}</Text> },
    {
      key: 'send_at',
      title: 'زمان ارسال',
      render: (r) => (
        <Box whiteSpace="nowrap">
          <Text>{formatJalaliDateTime(r.send_at)}</Text>
          <Text fontSize="xs" color="app.muted">
            {relativeTime(r.send_at)}
          </Text>
        </Box>
      ),
    },
    actionsColumn((r) => [
      { label: 'ویرایش', title: 'ویرایش زمان یا متن', icon: EditIcon, onClick: () => setEditing(r), testId: `scheduled-edit-${r.id}` },
      {
        label: 'لغو ارسال',
        title: 'لغو ارسال و بازگشت مبلغ',
        icon: StopIcon,
        danger: true,
        testId: `scheduled-cancel-${r.id}`,
        onClick: () => {
          cancel.reset()
          setCancelling(r)
        },
      },
    ]),
  ]

  return (
    <>
      <PagedTable caption="ارسال‌های زمان‌بندی‌شده" columns={columns} query={scheduled} url={URL_OPTS} />
      {editing && <EditScheduled row={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={!!cancelling}
        onClose={() => setCancelling(null)}
        title="لغو ارسال زمان‌بندی‌شده"
        confirmLabel="بله، لغو شود"
        onConfirm={confirmCancel}
        loading={cancel.isPending}
        error={cancel.error}
        testId="scheduled-cancel-confirm"
      >
        {cancelling &&
          `ارسال ${toPersianDigits(String(cancelling.id))} انجام نخواهد شد و ${formatRial(cancelling.price ?? 0)} به کیف پول شما بازمی‌گردد. ادامه می‌دهید؟`}
      </ConfirmDialog>
    </>
  )
}
