import { Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { ServerMessage } from '../../components/ServerMessage'
import { useDraftTicket, type TicketDraft } from './api'

/**
 * «نوشتن با دستیار» (/ticket/ai): the customer describes the problem in their own words and the
 * assistant suggests the category, sub-category and title, which fill the ticket form below.
 */
export function TicketDraftBox({ onDraft }: { onDraft: (d: TicketDraft) => void }) {
  const [problem, setProblem] = useState('')
  const draft = useDraftTicket()
  const suggest = () => draft.mutate(problem.trim(), { onSuccess: onDraft })
  return (
    <Stack gap="2" p="3" borderWidth="1px" rounded="lg" bg="bg.subtle" data-testid="ticket-ai">
      <Text fontWeight="medium" fontSize="sm">نوشتن با دستیار هوشمند</Text>
      <Text fontSize="xs" color="fg.muted">مشکل را با زبان خودتان بنویسید؛ دسته‌بندی و عنوان پیشنهاد می‌شود و می‌توانید پیش از ثبت آن‌ها را تغییر دهید.</Text>
      <Textarea
        aria-label="شرح مشکل برای دستیار"
        rows={3}
        maxLength={5000}
        value={problem}
        onChange={(e) => setProblem(e.target.value)}
        placeholder="مثلا: از دیروز پیامک‌هایم به مشترکین ایرانسل نمی‌رسد"
      />
      {draft.error && !draft.isPending && <ServerMessage error={draft.error} color="fg.error" fontSize="sm" />}
      {draft.data && !draft.isPending && (
        <Text fontSize="xs" color="fg.success" data-testid="ticket-ai-result">
          پیشنهاد دستیار: {draft.data.category} / {draft.data.sub_category}
        </Text>
      )}
      <HStack>
        <Button size="sm" variant="outline" colorPalette="brand" loading={draft.isPending} disabled={problem.trim() === ''} onClick={suggest} data-testid="ticket-ai-suggest">
          پیشنهاد تیکت
        </Button>
      </HStack>
    </Stack>
  )
}
