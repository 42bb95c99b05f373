import { Alert, Button } from '@chakra-ui/react'
import type { PriceQuote } from '../api'
import { outsideHoursNext, tehranTime } from './HoldDialog'

/**
 * The next allowed time of a scheduled send whose time is outside its sending hours: from
 * the quote (asked for the send's time) or from the refusal of the send; null otherwise.
 */
export function scheduledOutsideNext(quote: PriceQuote | undefined, sendError: unknown): string | null {
  const hours = quote?.send_hours
  const next = hours && !hours.open ? hours.next_allowed_at : outsideHoursNext(sendError)
  return next && Date.parse(next) > 0 ? next : null
}

interface Props {
  next: string
  onUse: () => void
}

/** Offers a scheduled send outside its sending hours the next allowed time instead. */
export function OutsideHoursOffer({ next, onUse }: Props) {
  const at = tehranTime(next)
  return (
    <Alert.Root status="warning" rounded="lg" data-testid="outside-hours">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title>زمان ارسال خارج از ساعت مجاز ارسال خطوط تبلیغاتی است</Alert.Title>
        <Alert.Description>{`نزدیک‌ترین زمان مجاز: ساعت ${at.time} (${at.day})`}</Alert.Description>
        <Button size="sm" alignSelf="flex-start" colorPalette="brand" variant="outline" onClick={onUse} data-testid="use-next-allowed">
          {`زمان ارسال: ساعت ${at.time} (${at.day})`}
        </Button>
      </Alert.Content>
    </Alert.Root>
  )
}
