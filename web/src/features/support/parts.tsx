import { Badge, Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react'
import { useRef, useState } from 'react'
import { ProgressBar } from '../../components/ProgressBar'
import { downloadFile } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { sizeText } from '../../components/ExportButton'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { errorText } from '../../lib/api'
import { attachmentPath, type Attachment, type Interaction, type TicketState } from './api'
import { ATTACH_ACCEPT, attachmentError, stateOf } from './logic'

/** A request's state as a coloured badge. */
export function StateBadge({ state }: { state: TicketState }) {
  const s = stateOf(state)
  return (
    <Badge colorPalette={s.palette} variant="subtle" data-testid="ticket-state" data-state={state} whiteSpace="normal">
      {s.label}
    </Badge>
  )
}

/** Five stars; onRate makes them buttons, value shows a given rating. */
export function Stars({ value, onRate, testId }: { value: number | null; onRate?: (n: number) => void; testId?: string }) {
  return (
    <HStack gap="0.5" role={onRate ? 'group' : 'img'} aria-label={value ? `امتیاز ${toPersianDigits(value)} از ۵` : 'امتیاز دهید'} data-testid={testId}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Box
          key={n}
          as={onRate ? 'button' : 'span'}
          fontSize="xl"
          lineHeight="1"
          color={value && n <= value ? 'orange.400' : 'fg.subtle'}
          cursor={onRate ? 'pointer' : undefined}
          aria-label={onRate ? `${toPersianDigits(n)} ستاره` : undefined}
          data-testid={testId ? `${testId}-${n}` : undefined}
          onClick={onRate ? () => onRate(n) : undefined}
        >
          ★
        </Box>
      ))}
    </HStack>
  )
}

/** Picks attachments, checks them before upload and lists the chosen ones. */
export function AttachmentPicker({ files, onChange, testId = 'ticket-files' }: { files: File[]; onChange: (f: File[]) => void; testId?: string }) {
  const ref = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<string | null>(null)
  const add = (list: FileList | null) => {
    const next = [...files, ...Array.from(list ?? [])]
    const err = attachmentError(next)
    setError(err)
    if (!err) onChange(next)
    if (ref.current) ref.current.value = ''
  }
  return (
    <Stack gap="2">
      <HStack gap="2" wrap="wrap">
        <Button size="sm" variant="outline" onClick={() => ref.current?.click()}>افزودن پیوست</Button>
        <Text fontSize="xs" color="app.muted">zip، jpg، png، pdf یا rar؛ هر فایل حداکثر ۱۰ مگابایت</Text>
        <Input ref={ref} type="file" multiple accept={ATTACH_ACCEPT} display="none" data-testid={testId} onChange={(e) => add(e.target.files)} />
      </HStack>
      {error && <Text color="fg.error" fontSize="sm" role="alert">{error}</Text>}
      {files.map((f, i) => (
        <HStack key={`${f.name}-${i}`} fontSize="sm" gap="2">
          <Text truncate flex="1">{f.name}</Text>
          <Text color="app.muted">{sizeText(f.size)}</Text>
          <Button size="xs" variant="ghost" onClick={() => onChange(files.filter((_, j) => j !== i))} aria-label={`حذف ${f.name}`}>حذف</Button>
        </HStack>
      ))}
    </Stack>
  )
}

/** Upload progress of a message with attachments. */
export function UploadProgress({ progress }: { progress: { loaded: number; total: number } | null }) {
  if (!progress) return null
  return <ProgressBar value={progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0} label="در حال ارسال پیوست‌ها" />
}

function AttachmentLink({ a, staff }: { a: Attachment; staff: boolean }) {
  const download = () => downloadFile(attachmentPath(a.id, staff), {}, a.name).catch((e) => toaster.create({ type: 'error', title: errorText(e) }))
  return (
    <Button size="xs" variant="outline" onClick={download} data-testid="ticket-attachment">
      {a.name} <Text as="span" color="app.muted">({sizeText(a.size)})</Text>
    </Button>
  )
}

/** The conversation: the customer's messages on one side, support's on the other. */
export function Conversation({ items, staffView, onRate }: { items: Interaction[]; staffView: boolean; onRate?: (id: number, n: number) => void }) {
  return (
    <Stack gap="3" data-testid="ticket-conversation">
      {items.map((i) => (
        <Box
          key={i.id}
          alignSelf={i.staff ? 'flex-end' : 'flex-start'}
          maxW={{ base: '100%', md: '80%' }}
          w="fit-content"
          minW={{ base: '100%', md: '50%' }}
          p="3"
          rounded="lg"
          bg={i.staff ? 'brand.subtle' : 'app.raised'}
          borderWidth="1px"
          borderColor="app.border"
          data-testid={i.staff ? 'interaction-staff' : 'interaction-customer'}
        >
          <HStack justify="space-between" mb="1" gap="3" wrap="wrap">
            <Text fontWeight="bold" fontSize="sm">{i.author}</Text>
            <Text fontSize="xs" color="app.muted">{formatJalaliDateTime(i.created_at)}</Text>
          </HStack>
          <Text whiteSpace="pre-wrap" fontSize="sm">{i.text}</Text>
          {i.attachments.length > 0 && (
            <HStack gap="2" mt="2" wrap="wrap">
              {i.attachments.map((a) => <AttachmentLink key={a.id} a={a} staff={staffView} />)}
            </HStack>
          )}
          {i.staff && (i.rating !== null || onRate) && (
            <HStack mt="2" gap="2" fontSize="xs" color="app.muted">
              <Text>{i.rating !== null ? 'امتیاز شما:' : 'به این پاسخ امتیاز دهید:'}</Text>
              <Stars value={i.rating} onRate={i.rating === null && onRate ? (n) => onRate(i.id, n) : undefined} testId={`rate-interaction-${i.id}`} />
            </HStack>
          )}
        </Box>
      ))}
    </Stack>
  )
}
