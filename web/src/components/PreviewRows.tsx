import { Box, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { formatNumber, formatRial } from '../lib/format'
import { displayMobile } from '../lib/mobile'

/** A row of a quote's preview (POST /send/calculate-price): the rendered text, its parts and its price. */
export interface PreviewRow {
  mobile: string
  text: string
  parts: number
  price: number
}

/**
 * The first rows of a personalised send as each handset gets them, with parts and price per row
 * (the phonebook send's review step and the occasion form).
 */
export function PreviewRows({ quote, cancel11 }: { quote: { preview?: PreviewRow[] } | undefined; cancel11: boolean }) {
  const rows = quote?.preview ?? []
  if (!rows.length) return null
  return (
    <Stack gap="2" data-testid="preview-rows">
      <Text fontSize="sm" color="app.muted">
        {`پیش‌نمایش ${formatNumber(rows.length)} گیرنده نخست: متن هر مخاطب با برچسب‌های خودش${cancel11 ? '؛ «لغو۱۱» به انتهای هر پیامک افزوده می‌شود' : ''}`}
      </Text>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        {rows.map((r) => (
          <Stack key={r.mobile} gap="2" borderWidth="1px" borderColor="app.border" rounded="lg" p="3" data-testid="preview-row">
            <HStack justify="space-between" fontSize="xs" color="app.muted" wrap="wrap" gap="2">
              <bdi dir="ltr">{displayMobile(r.mobile)}</bdi>
              <Text>
                {`${formatNumber(r.parts)} بخش · `}
                <Text as="span" fontWeight="semibold" color="fg" data-testid="preview-price">{formatRial(r.price)}</Text>
              </Text>
            </HStack>
            <Box bg="brand.subtle" borderWidth="1px" borderColor="brand.muted" px="3" py="2" rounded="xl" roundedTopLeft="sm"
              whiteSpace="pre-wrap" wordBreak="break-word" data-testid="preview-text">
              {r.text}
            </Box>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  )
}
