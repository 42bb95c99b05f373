import { Badge, Button, Card, Heading, HStack, Stack, Text, Textarea } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { ExportButton } from '../../components/ExportButton'
import { Modal } from '../../components/Overlays'
import { selectColumn, SelectionBar, useSelection } from '../../components/Selection'
import { ServerMessage } from '../../components/ServerMessage'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { allows, useAcl } from '../../lib/acl'
import { errorText } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useSenderLines } from '../../lib/lines'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useLiveEvent } from '../../lib/useLive'
import { deleteInbox, exportInbox, INBOX_KEY, useInbox, useMarkRead, useReaderOptions, useReply, useUnread, type InboxItem } from './api'
import { displaySender } from './sender'
import { ThreadDialog } from './ThreadDialog'

function useFilters(): TableFilter[] {
  const lines = useSenderLines()
  const readers = useReaderOptions()
  return useMemo(
    () => [
      { type: 'search', key: 'text', title: 'متن', placeholder: 'جستجو در متن' },
      { type: 'search', key: 'sender', title: 'فرستنده', placeholder: 'شماره فرستنده' },
      { type: 'options', key: 'line', title: 'خط', options: (lines.data ?? []).map((l) => ({ value: l.number, label: toPersianDigits(l.number) })) },
      { type: 'options', key: 'reader_id', title: 'منشی', options: (readers.data?.rows ?? []).map((r) => ({ value: String(r.id), label: r.title })) },
      { type: 'options', key: 'status', title: 'وضعیت', options: [{ value: 'unread', label: 'خوانده‌نشده' }, { value: 'read', label: 'خوانده‌شده' }] },
      { type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'date_from', dateToKey: 'date_to' },
    ],
    [lines.data, readers.data],
  )
}

function columns(onReply: (m: InboxItem) => void, onThread: (m: InboxItem) => void, canSend: boolean): DataTableColumn<InboxItem>[] {
  return [
    {
      key: 'sender',
      title: 'فرستنده',
      render: (m) => (
        <HStack gap="2" wrap="wrap">
          {m.replied_at ? (
            <Badge colorPalette="green" size="xs" data-testid="inbox-replied">پاسخ داده شد</Badge>
          ) : (
            !m.read_at && <Badge colorPalette="brand" size="xs">تازه</Badge>
          )}
          <bdi>{displaySender(m.sender)}</bdi>
        </HStack>
      ),
    },
    {
      key: 'text',
      title: 'متن',
      render: (m) => (
        <Stack gap="1">
          <Text fontSize="sm" whiteSpace="pre-wrap" fontWeight={m.read_at ? 'normal' : 'semibold'} data-testid="inbox-text">{m.text}</Text>
          {m.incomplete && <Badge colorPalette="orange" size="xs" w="fit-content">ناقص: {toPersianDigits(m.parts)} بخش رسید</Badge>}
        </Stack>
      ),
    },
    { key: 'line', title: 'خط', render: (m) => <bdi>{toPersianDigits(m.line)}</bdi>, hideOnMobile: true },
    { key: 'reader', title: 'منشی', render: (m) => m.reader_title || '—', hideOnMobile: true },
    { key: 'received_at', title: 'زمان دریافت', render: (m) => <Text as="span" whiteSpace="nowrap">{formatJalaliDateTime(m.received_at)}</Text> },
    {
      key: 'actions',
      title: 'پاسخ',
      render: (m) => (
        <HStack gap="1.5">
          {canSend && (
            <Button size="xs" variant="outline" colorPalette="brand" onClick={() => onReply(m)} data-testid={`inbox-reply-${m.id}`}>
              پاسخ
            </Button>
          )}
          <Button size="xs" variant="ghost" colorPalette="brand" onClick={() => onThread(m)} data-testid={`inbox-thread-${m.id}`}>
            گفتگو
          </Button>
        </HStack>
      ),
    },
  ]
}

function ReplyDialog({ message, onClose }: { message: InboxItem | null; onClose: () => void }) {
  const [text, setText] = useState('')
  const reply = useReply()
  const submit = () =>
    message &&
    reply.mutate(
      { id: message.id, text },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: 'پاسخ ارسال شد' })
          setText('')
          onClose()
        },
      },
    )
  return (
    <Modal
      open={!!message}
      onClose={onClose}
      title={message ? `پاسخ به ${displaySender(message.sender)}` : ''}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>انصراف</Button>
          <Button colorPalette="brand" onClick={submit} loading={reply.isPending} disabled={!text.trim()} data-testid="inbox-reply-send">
            ارسال پاسخ
          </Button>
        </>
      }
    >
      <Stack gap="3">
        {message && <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap">{message.text}</Text>}
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={4} placeholder="متن پاسخ" aria-label="متن پاسخ" data-testid="inbox-reply-text" />
        {reply.error && <ServerMessage error={reply.error} />}
        <Text fontSize="xs" color="fg.muted">پاسخ از خط {message ? toPersianDigits(message.line) : ''} و با هزینه یک ارسال سریع فرستاده می‌شود.</Text>
      </Stack>
    </Modal>
  )
}

/** /inbox: received messages with filters, live arrival, bulk read/delete, export and reply. */
export default function InboxPage() {
  const qc = useQueryClient()
  const list = useUrlListState()
  const filterDefs = useFilters()
  const filters = list.filters(allFilterKeys(filterDefs))
  const query = { page: list.page, limit: list.limit, ...filters }
  const inbox = useInbox(query)
  const unread = useUnread()
  const acl = useAcl().data
  const selection = useSelection<number>(JSON.stringify(query))
  const markRead = useMarkRead()
  const [replyTo, setReplyTo] = useState<InboxItem | null>(null)
  const [threadOf, setThreadOf] = useState<InboxItem | null>(null)
  const [deleting, setDeleting] = useState<number[] | null>(null)
  const [deleteError, setDeleteError] = useState<unknown>(null)
  const [busy, setBusy] = useState(false)
  useLiveEvent((m) => {
    if (m.event !== 'inbox.received') return
    void qc.invalidateQueries({ queryKey: INBOX_KEY })
  })
  const canManage = allows(acl, 'inbox.manage')
  const cols = useMemo(() => {
    const c = columns(setReplyTo, setThreadOf, allows(acl, 'send.create'))
    return canManage ? [selectColumn<InboxItem, number>(selection, (m) => m.id, (m) => displaySender(m.sender)), ...c] : c
  }, [acl, canManage, selection])
  const pageIds = (inbox.data?.rows ?? []).map((m) => m.id)
  const confirmDelete = async () => {
    if (!deleting) return
    setBusy(true)
    try {
      const r = await deleteInbox(deleting)
      toaster.create({ type: 'success', title: `${formatNumber(r.deleted)} پیام حذف شد` })
      setDeleting(null)
      selection.clear()
      void qc.invalidateQueries({ queryKey: INBOX_KEY })
    } catch (err) {
      setDeleteError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Stack gap="1">
              <Heading as="h2" size="md">پیامک‌های دریافتی</Heading>
              <Text color="fg.muted" fontSize="sm">پیامک‌هایی که مخاطبان به خطوط شما فرستاده‌اند؛ پیام تازه بی‌درنگ به فهرست اضافه می‌شود.</Text>
            </Stack>
            <Badge colorPalette={unread.data?.unread ? 'brand' : 'gray'} size="lg" data-testid="inbox-unread">
              {`${formatNumber(unread.data?.unread ?? 0)} خوانده‌نشده`}
            </Badge>
          </HStack>
          {canManage && pageIds.length > 0 && (
            <SelectionBar selection={selection} pageKeys={pageIds} onDelete={() => { setDeleteError(null); setDeleting([...selection.selected]) }}>
              <Button
                size="xs"
                variant="subtle"
                colorPalette="brand"
                loading={markRead.isPending}
                onClick={() => markRead.mutate([...selection.selected], { onSuccess: () => selection.clear(), onError: (e) => toaster.create({ type: 'error', description: errorText(e) }) })}
                data-testid="inbox-mark-read"
              >
                علامت خوانده‌شده
              </Button>
            </SelectionBar>
          )}
          <DataTable
            caption="پیامک‌های دریافتی"
            columns={cols}
            {...pagedQueryProps(inbox)}
            rowKey={(m) => m.id}
            filters={filterDefs}
            toolbar={<ExportButton testId="inbox-export" download={(p) => exportInbox(filters, p)} />}
            emptyText="پیامی با این فیلترها دریافت نشده است"
          />
        </Stack>
      </Card.Body>
      <ReplyDialog message={replyTo} onClose={() => setReplyTo(null)} />
      <ThreadDialog message={threadOf} onClose={() => setThreadOf(null)} onReply={allows(acl, 'send.create') ? (m) => { setThreadOf(null); setReplyTo(m) } : undefined} />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title="حذف پیام‌ها"
        confirmLabel="حذف"
        onConfirm={confirmDelete}
        loading={busy}
        error={deleteError}
        testId="inbox-delete-confirm"
      >
        {`${formatNumber(deleting?.length ?? 0)} پیام انتخاب‌شده برای همیشه حذف می‌شود.`}
      </ConfirmDialog>
    </Card.Root>
  )
}
