import { Badge, HStack, RadioCard, SimpleGrid, Skeleton, Text } from '@chakra-ui/react'
import { ErrorState, EmptyState } from './States'
import { toPersianDigits } from '../lib/digits'
import { useSenderLines, type SenderLine } from '../lib/lines'

interface Props {
  value: string
  onChange: (line: SenderLine) => void
  error?: string
  /** Only lines of these kinds are offered (a one-time code pattern: service lines). */
  kinds?: SenderLine['kind'][]
  /** What says under the picker whether «لغو۱۱» is appended on the chosen line. */
  footerNote?: (line: SenderLine) => string
  /** Shown instead of the picker when no line fits. */
  empty?: React.ReactNode
}

export const LINE_KIND: Record<SenderLine['kind'], string> = { advertising: 'تبلیغاتی', service: 'خدماتی' }

/** What the kinds of lines mean for sending (docs/sending-rules.md). */
export const LINE_KINDS_HINT =
  'خط تبلیغاتی فقط در ساعت مجاز اپراتورها (پیش‌فرض ۰۷:۰۰ تا ۲۲:۰۰ به وقت تهران) ارسال می‌کند و ارسال خارج از آن تا باز شدن ساعت مجاز نگه داشته می‌شود؛ خط خدماتی در همه ساعات ارسال می‌کند.'

/** Whether a send wizard's message carries «لغو۱۱» on a line (docs/api-sending.md). */
export function wizardFooterNote(line: SenderLine): string {
  return line.kind === 'advertising'
    ? 'خط تبلیغاتی: عبارت «لغو۱۱» (۶ کاراکتر) به انتهای هر پیامک افزوده می‌شود.'
    : 'خط خدماتی: «لغو۱۱» افزوده نمی‌شود، مگر آن را زیر متن پیام روشن کنید.'
}

/** Sender line choice (GET /number/numbers) and, under it, whether the chosen line appends «لغو۱۱». */
export function SenderPicker({ value, onChange, error, kinds, footerNote = wizardFooterNote, empty }: Props) {
  const { data: all, isPending, isError, refetch } = useSenderLines()
  if (isPending) return <Skeleton h="20" rounded="lg" />
  if (isError) return <ErrorState py="4" onRetry={() => refetch()} />
  const lines = kinds ? all.filter((l) => kinds.includes(l.kind)) : all
  if (!lines.length) return empty ?? <EmptyState py="4" title="خط ارسالی برای حساب شما ثبت نشده است" />
  const chosen = lines.find((l) => l.number === value)
  return (
    <RadioCard.Root
      value={value}
      onValueChange={(e) => {
        const line = lines.find((l) => l.number === e.value)
        if (line) onChange(line)
      }}
      colorPalette="brand"
      size="sm"
      invalid={!!error}
    >
      <RadioCard.Label fontWeight="medium" mb="1">
        خط ارسال
      </RadioCard.Label>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="2.5">
        {lines.map((l) => (
          <RadioCard.Item key={l.id} value={l.number} data-testid={`sender-${l.number}`}>
            <RadioCard.ItemHiddenInput />
            <RadioCard.ItemControl>
              <RadioCard.ItemContent>
                <HStack justify="space-between" w="full">
                  <Text fontWeight="bold" dir="ltr" fontSize="md">
                    {toPersianDigits(l.number)}
                  </Text>
                  <HStack gap="1">
                    {l.is_default && (
                      <Badge size="sm" colorPalette="brand" variant="solid">
                        پیش‌فرض
                      </Badge>
                    )}
                    <Badge size="sm" variant="subtle" colorPalette={l.kind === 'advertising' ? 'orange' : 'blue'}>
                      {LINE_KIND[l.kind] ?? l.kind}
                    </Badge>
                  </HStack>
                </HStack>
              </RadioCard.ItemContent>
              <RadioCard.ItemIndicator />
            </RadioCard.ItemControl>
          </RadioCard.Item>
        ))}
      </SimpleGrid>
      {chosen && (
        <Text fontSize="xs" color="fg.muted" mt="1" data-testid="footer-note" data-cancel11={chosen.kind === 'advertising'}>
          {footerNote(chosen)}
        </Text>
      )}
      <Text fontSize="xs" color="app.muted" mt="1" data-testid="line-kinds-hint">
        {LINE_KINDS_HINT}
      </Text>
      {error && (
        <Text fontSize="sm" color="fg.error" mt="1">
          {error}
        </Text>
      )}
    </RadioCard.Root>
  )
}
