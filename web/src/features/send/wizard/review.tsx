import { Box, HStack, Stack, Text } from '@chakra-ui/react'
import type { ReactNode } from 'react'
import { formatJalaliDateTime } from '../../../lib/jalali'
import type { ScheduleDraft } from '../../../lib/schedule'
import type { GradualDraft } from '../../../lib/gradual'
import { toPersianDigits } from '../../../lib/digits'

/** One «label: value» line of a review summary. */
export function ReviewRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HStack justify="space-between" py="2.5" borderBottomWidth="1px" borderColor="app.border" _last={{ borderBottomWidth: 0 }} gap="4">
      <Text color="app.muted" fontSize="sm">
        {label}
      </Text>
      <Box fontWeight="semibold" fontSize="sm" textAlign="end" minW="0" wordBreak="break-word">
        {children}
      </Box>
    </HStack>
  )
}

/** «فوری» or the Jalali date and time of a scheduled send. */
export function scheduleText(d: ScheduleDraft): string {
  return d.schedule === 'later' && d.sendAt ? formatJalaliDateTime(d.sendAt) : 'فوری'
}

/** «N در ساعت», «N در دقیقه» or «تا ساعت HH:mm» of a gradual send. */
export function gradualText(d: Partial<GradualDraft>): string {
  if (d.gradual === 'until') return `تا ساعت ${toPersianDigits(d.gradualUntil ?? '')}`
  return `${toPersianDigits(d.gradualCount ?? '')} ${d.gradual === 'per_hour' ? 'در ساعت' : 'در دقیقه'}`
}

/** The text as a chat bubble, the way the recipient sees it. */
export function MessagePreview({ text, cancel11, title = 'پیش‌نمایش پیامک' }: { text: ReactNode; cancel11: boolean; title?: string }) {
  return (
    <Stack gap="2">
      <Text fontSize="sm" color="app.muted">
        {title}
      </Text>
      <Box
        alignSelf="flex-start"
        maxW="full"
        bg="brand.subtle"
        borderWidth="1px"
        borderColor="brand.muted"
        px="4"
        py="3"
        rounded="2xl"
        roundedTopLeft="sm"
        whiteSpace="pre-wrap"
        wordBreak="break-word"
        data-testid="review-text"
      >
        {text}
        {cancel11 && <Text color="app.muted">لغو۱۱</Text>}
      </Box>
    </Stack>
  )
}
