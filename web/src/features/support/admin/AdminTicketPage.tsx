import { Button, HStack, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useParams } from 'react-router'
import { SectionCard } from '../../../components/SectionCard'
import { Select } from '../../../components/Select'
import { ServerMessage } from '../../../components/ServerMessage'
import { ErrorState, LoadingState, StaleNote } from '../../../components/States'
import { errorText } from '../../../lib/api'
import { toPersianDigits } from '../../../lib/digits'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { toaster } from '../../../lib/toaster'
import { useAdminAnswer, useAdminAssign, useAdminState, useAdminTicket, useCanned, useStaffUsers, type TicketDetail } from '../api'
import { AttachmentPicker, Conversation, StateBadge, Stars } from '../parts'

/** /admin/support/tickets/:id: the conversation, staff's answer, referral, assignment and closing. */
export default function AdminTicketPage() {
  const { id } = useParams()
  const q = useAdminTicket(id)
  if (q.isLoading) return <LoadingState />
  if (!q.data) return <ErrorState onRetry={() => void q.refetch()} />
  const t = q.data
  // The same tree whether a refresh failed or not: an answer being typed stays.
  return (
    <Stack gap="2">
      {q.isError && <StaleNote alignSelf="flex-start" />}
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" alignItems="start">
        <Stack gap="4" gridColumn={{ lg: 'span 2' }}>
          <SectionCard
            title={<HStack gap="2" wrap="wrap"><Text as="span">{t.title}</Text><StateBadge state={t.state} /></HStack>}
            description={`شماره ${toPersianDigits(t.number)} · ${t.account_name} (حساب ${toPersianDigits(t.account_id)}) · ${formatJalaliDateTime(t.created_at)}`}
            actions={<Button asChild size="sm" variant="outline"><RouterLink to="/admin/support/tickets">بازگشت به صف</RouterLink></Button>}
          >
            <Conversation items={t.interactions} staffView />
          </SectionCard>
          {t.state !== 4 ? <AnswerBox t={t} /> : <Text color="app.muted" data-testid="admin-ticket-closed">این درخواست بسته شده است.</Text>}
        </Stack>
        <Controls t={t} />
      </SimpleGrid>
    </Stack>
  )
}

function AnswerBox({ t }: { t: TicketDetail }) {
  const [text, setText] = useState('')
  const [files, setFiles] = useState<File[]>([])
  const canned = useCanned()
  const answer = useAdminAnswer()
  const send = (action: 'staff_answer' | 'staff_ask') =>
    answer.mutate(
      { id: t.id, text, action, files },
      {
        onSuccess: () => {
          setText('')
          setFiles([])
          toaster.create({ type: 'success', title: 'پاسخ ثبت شد' })
        },
      },
    )
  return (
    <SectionCard title="پاسخ پشتیبانی">
      <Stack gap="3">
        <Select
          options={(canned.data ?? []).map((c) => ({ value: c.id, label: c.title }))}
          value={null}
          onChange={(v) => setText((prev) => (prev ? `${prev}\n` : '') + (canned.data?.find((c) => c.id === v)?.text ?? ''))}
          placeholder="درج پاسخ آماده"
          aria-label="پاسخ آماده"
        />
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={5} maxLength={5000} data-testid="admin-answer-text" aria-label="متن پاسخ" />
        <AttachmentPicker files={files} onChange={setFiles} testId="admin-answer-files" />
        {answer.error && <ServerMessage error={answer.error} color="fg.error" />}
        <HStack gap="2" wrap="wrap">
          <Button colorPalette="brand" disabled={!text.trim()} loading={answer.isPending} onClick={() => send('staff_answer')} data-testid="admin-answer-send">ارسال پاسخ</Button>
          <Button variant="outline" disabled={!text.trim()} loading={answer.isPending} onClick={() => send('staff_ask')}>ارسال و انتظار پاسخ مشتری</Button>
        </HStack>
      </Stack>
    </SectionCard>
  )
}

function Controls({ t }: { t: TicketDetail }) {
  const staff = useStaffUsers()
  const assign = useAdminAssign()
  const state = useAdminState()
  const onError = (e: unknown) => toaster.create({ type: 'error', title: errorText(e) })
  const move = (s: 4 | 5 | 6) => state.mutate({ id: t.id, state: s }, { onError })
  const open = t.state !== 4
  return (
    <Stack gap="4">
      <SectionCard title="کارشناس">
        <Select
          options={[{ value: 0, label: 'بدون کارشناس' }, ...(staff.data ?? []).map((u) => ({ value: u.id, label: u.name || u.username }))]}
          value={t.assigned_to ?? 0}
          onChange={(v) => assign.mutate({ id: t.id, staff_id: v ?? 0 }, { onError })}
          aria-label="کارشناس"
        />
      </SectionCard>
      <SectionCard title="وضعیت">
        <Stack gap="2">
          <Button size="sm" variant="outline" disabled={!open || t.state === 5} loading={state.isPending} onClick={() => move(5)} data-testid="admin-refer-5">ارجاع برای بررسی بیشتر</Button>
          <Button size="sm" variant="outline" disabled={!open || t.state === 6} loading={state.isPending} onClick={() => move(6)} data-testid="admin-refer-6">ارجاع به واحد مربوطه</Button>
          <Button size="sm" colorPalette="red" variant="outline" disabled={!open} loading={state.isPending} onClick={() => move(4)} data-testid="admin-close">بستن درخواست</Button>
        </Stack>
      </SectionCard>
      {t.rating !== null && (
        <SectionCard title="امتیاز مشتری">
          <Stars value={t.rating} />
          {t.rating_comment && <Text fontSize="sm" mt="2">{t.rating_comment}</Text>}
        </SectionCard>
      )}
    </Stack>
  )
}
