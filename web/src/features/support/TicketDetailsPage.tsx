import { Alert, Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link as RouterLink, useParams } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState, LoadingState, StaleNote } from '../../components/States'
import { ApiError, errorText } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useLiveEvent } from '../../lib/useLive'
import { supportKeys, useCloseTicket, useRateInteraction, useRateTicket, useReply, useTicket, type TicketDetail } from './api'
import { canReply, CLOSED_NOTICE } from './logic'
import { AttachmentPicker, Conversation, StateBadge, Stars, UploadProgress } from './parts'

/** /support/tickets/:id and /support/suggestion-request/:id: the conversation, replying, closing and rating. */
export default function TicketDetailsPage() {
  const { id } = useParams()
  const q = useTicket(id)
  const qc = useQueryClient()
  useLiveEvent((m) => {
    const data = m.data as { id?: number } | undefined
    if (m.event === 'ticket.updated' && String(data?.id) === id) void qc.invalidateQueries({ queryKey: supportKeys.all })
  })
  if (q.isLoading) return <LoadingState />
  if (!q.data) {
    const missing = q.error instanceof ApiError && q.error.status === 404
    return <ErrorState title={missing ? 'درخواست یافت نشد' : undefined} onRetry={missing ? undefined : () => void q.refetch()} />
  }
  // The same tree whether a refresh failed or not: a reply being typed stays.
  return (
    <Stack gap="2">
      {q.isError && <StaleNote alignSelf="flex-start" />}
      <Details t={q.data} />
    </Stack>
  )
}

function Details({ t }: { t: TicketDetail }) {
  const rate = useRateInteraction()
  const onRate = (iid: number, rating: number) =>
    rate.mutate({ id: iid, rating }, { onSuccess: () => toaster.create({ type: 'success', title: 'از امتیاز شما سپاسگزاریم' }), onError: (e) => toaster.create({ type: 'error', title: errorText(e) }) })
  return (
    <Stack gap="4" maxW="4xl">
      <SectionCard
        title={
          <HStack gap="2" wrap="wrap">
            <Text as="span">{t.title}</Text>
            <StateBadge state={t.state} />
          </HStack>
        }
        description={`شماره درخواست ${toPersianDigits(t.number)} · ${[t.category, t.sub_category].filter(Boolean).join(' / ') || (t.kind === 'suggestion' ? 'پیشنهاد' : '')} · ${formatJalaliDateTime(t.created_at)}`}
        actions={<Button asChild size="sm" variant="outline"><RouterLink to="/support/tickets">بازگشت به فهرست</RouterLink></Button>}
      >
        <Conversation items={t.interactions} staffView={false} onRate={onRate} />
      </SectionCard>
      {canReply(t.state) ? <ReplyBox t={t} /> : <ClosedBox t={t} />}
    </Stack>
  )
}

function ReplyBox({ t }: { t: TicketDetail }) {
  const [text, setText] = useState('')
  const [files, setFiles] = useState<File[]>([])
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null)
  const reply = useReply((loaded, total) => setProgress({ loaded, total }))
  const close = useCloseTicket()
  const send = () =>
    reply.mutate(
      { ticket_id: t.id, text, files },
      {
        onSuccess: () => {
          setText('')
          setFiles([])
          toaster.create({ type: 'success', title: 'پاسخ شما ثبت شد' })
        },
        onSettled: () => setProgress(null),
      },
    )
  return (
    <SectionCard title="پاسخ شما">
      <Stack gap="3">
        <Textarea value={text} onChange={(e) => setText(e.target.value)} rows={4} maxLength={5000} placeholder="پیام خود را بنویسید" data-testid="reply-text" aria-label="پاسخ" />
        <AttachmentPicker files={files} onChange={setFiles} testId="reply-files" />
        <UploadProgress progress={progress} />
        {reply.error && <ServerMessage error={reply.error} color="fg.error" />}
        <HStack gap="2" wrap="wrap">
          <Button colorPalette="brand" onClick={send} loading={reply.isPending} disabled={!text.trim()} data-testid="reply-send">ارسال پاسخ</Button>
          <Button variant="outline" onClick={() => close.mutate(t.id, { onError: (e) => toaster.create({ type: 'error', title: errorText(e) }) })} loading={close.isPending} data-testid="ticket-close">
            مشکل حل شد؛ بستن درخواست
          </Button>
        </HStack>
      </Stack>
    </SectionCard>
  )
}

function ClosedBox({ t }: { t: TicketDetail }) {
  const rate = useRateTicket()
  const [rating, setRating] = useState<number | null>(null)
  const [comment, setComment] = useState('')
  return (
    <Stack gap="3">
      <Alert.Root status="info" data-testid="ticket-closed-notice">
        <Alert.Indicator />
        <Alert.Title>{t.notice || CLOSED_NOTICE}</Alert.Title>
        <Button asChild size="xs" colorPalette="brand" ms="auto"><RouterLink to="/support/create-ticket">درخواست تازه</RouterLink></Button>
      </Alert.Root>
      <SectionCard title="امتیاز شما به پشتیبانی">
        {t.rating !== null ? (
          <Stack gap="1">
            <Stars value={t.rating} testId="ticket-rating" />
            {t.rating_comment && <Text fontSize="sm" color="app.muted">{t.rating_comment}</Text>}
          </Stack>
        ) : (
          <Stack gap="3">
            <Stars value={rating} onRate={setRating} testId="rate-ticket" />
            <Textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} maxLength={1000} placeholder="نظر شما (اختیاری)" aria-label="نظر شما" />
            {rate.error && <ServerMessage error={rate.error} color="fg.error" />}
            <Button alignSelf="flex-start" colorPalette="brand" disabled={!rating} loading={rate.isPending} data-testid="rate-ticket-send"
              onClick={() => rating && rate.mutate({ id: t.id, rating, comment })}>
              ثبت امتیاز
            </Button>
          </Stack>
        )}
      </SectionCard>
    </Stack>
  )
}
