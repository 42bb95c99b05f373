import { Badge, Box, Button, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Modal } from '../../components/Overlays'
import { EmptyState, ErrorState } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { sendStatusInfo } from '../../lib/statuses'
import { displaySender } from './sender'
import { useThread, type InboxItem, type ThreadEntry } from './api'


/** One bubble: received messages on the start side (right), replies on the end side (left). */
function Bubble({ e }: { e: ThreadEntry }) {
  const out = e.direction === 'out'
  const st = out ? sendStatusInfo(e.status) : null
  return (
    <Box alignSelf={out ? 'flex-end' : 'flex-start'} maxW="85%" data-testid={`thread-${e.direction}`}>
      <Box bg={out ? 'brand.subtle' : 'app.raised'} color="fg" rounded="xl" px="3" py="2"
        borderStartStartRadius={out ? 'xl' : 'sm'} borderStartEndRadius={out ? 'sm' : 'xl'}>
        <Text fontSize="sm" whiteSpace="pre-wrap">{e.text}</Text>
      </Box>
      <Text fontSize="xs" color="app.muted" mt="1" textAlign={out ? 'end' : 'start'}>
        {out ? 'پاسخ شما' : 'دریافتی'}{` · خط ${toPersianDigits(e.line)} · `}{formatJalaliDateTime(e.at)}
        {st && <Badge ms="1.5" size="xs" colorPalette={st.color}>{st.label}</Badge>}
      </Text>
    </Box>
  )
}

/**
 * The conversation with the sender of a received message: every message received
 * from that number and every reply sent to it from the inbox, oldest first, with
 * Jalali times.
 */
export function ThreadDialog({ message, onClose, onReply }: { message: InboxItem | null; onClose: () => void; onReply?: (m: InboxItem) => void }) {
  const thread = useThread(message?.id ?? null)
  return (
    <Modal open={!!message} onClose={onClose} title={message ? `گفتگو با ${displaySender(message.sender)}` : ''}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>بستن</Button>
          {onReply && message && <Button colorPalette="brand" onClick={() => onReply(message)} data-testid="thread-reply">پاسخ</Button>}
        </>
      }>
      <Stack gap="3" data-testid="inbox-thread" maxH="60vh" overflowY="auto">
        {thread.isPending ? (
          [0, 1, 2].map((i) => <Skeleton key={i} h="12" rounded="xl" />)
        ) : thread.isError ? (
          <ErrorState onRetry={() => thread.refetch()} py="4" />
        ) : !thread.data?.entries.length ? (
          <EmptyState title="پیامی در این گفتگو نیست" py="4" />
        ) : (
          thread.data.entries.map((e) => <Bubble key={`${e.direction}-${e.id}`} e={e} />)
        )}
      </Stack>
    </Modal>
  )
}
