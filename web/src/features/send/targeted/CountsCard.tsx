import { Alert, Box, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { Fact } from '../../../components/Fact'
import { ServerMessage } from '../../../components/ServerMessage'
import { ErrorState } from '../../../components/States'
import { formatNumber, formatRial } from '../../../lib/format'
import { operatorLabel } from '../../../lib/statuses'
import type { BankCounts } from '../api'

const GENDERS: Record<string, string> = { male: 'مرد', female: 'زن', unknown: 'نامشخص' }
const AGES: Record<string, string> = { '1': '۱۸–۲۴', '2': '۲۵–۳۴', '3': '۳۵–۴۴', '4': '۴۵–۵۴', '5': '۵۵+', unknown: 'نامشخص' }

/** The audience's live count: how many, the price, and the split by operator, gender and age. */
export function CountsCard({ counts, idle }: { counts: UseQueryResult<BankCounts>; idle: boolean }) {
  if (idle) {
    return (
      <Text color="app.muted" fontSize="sm" data-testid="bank-counts-idle">
        پس از انتخاب مخاطبان، تعداد شماره‌ها و هزینه اینجا نمایش داده می‌شود.
      </Text>
    )
  }
  if (counts.isPending) return <Skeleton h="40" rounded="xl" />
  if (counts.isError) return <ErrorState py="6" description={<ServerMessage error={counts.error} />} onRetry={() => counts.refetch()} />
  const c = counts.data
  const ops = Object.entries(c.by_operator ?? {})
    .filter(([, n]) => n > 0)
    .map(([op, n]) => ({ name: operatorLabel(op), n }))
    .sort((a, b) => b.n - a.n)
  return (
    <Stack gap="4" data-testid="bank-counts" data-state={counts.isFetching ? 'loading' : 'ready'} opacity={counts.isFetching ? 0.6 : 1}>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        <Fact label="شماره‌های این محدوده" value={formatNumber(c.total)} testId="bank-total" />
        <Fact label="گیرندگان ارسال" value={formatNumber(c.recipients)} testId="bank-recipients" />
        <Fact label="بخش‌های هر پیامک" value={formatNumber(c.parts)} />
        <Fact label="هزینه تقریبی" value={formatRial(c.price)} testId="bank-price" />
      </SimpleGrid>
      {!c.enough && (
        <Alert.Root status="warning" rounded="lg" data-testid="bank-minimum">
          <Alert.Indicator />
          <Alert.Description>{`ارسال منطقه‌ای دست‌کم به ${formatNumber(c.minimum)} گیرنده نیاز دارد؛ محدوده را بزرگ‌تر کنید.`}</Alert.Description>
        </Alert.Root>
      )}
      {c.total > 0 && (
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="start">
          <OperatorBars ops={ops} />
          <Split title="به تفکیک جنسیت" labels={GENDERS} values={c.by_gender} />
          <Split title="به تفکیک سن" labels={AGES} values={c.by_age_band} />
        </SimpleGrid>
      )}
      <Text fontSize="xs" color="app.muted">
        شماره‌ها به شما نمایش داده نمی‌شوند. لیست سیاه و لغو۱۱ شما روی شماره‌های بانک اعمال نمی‌شود؛ هزینه دقیق در مرحله آخر محاسبه می‌شود.
      </Text>
    </Stack>
  )
}

/**
 * The split by operator as labelled bars in the page's own flow (a label, a bar as long as its
 * share and the count): nothing overlaps its title in either direction or on a narrow screen,
 * and an audience without operator figures says so.
 */
function OperatorBars({ ops }: { ops: { name: string; n: number }[] }) {
  const top = Math.max(1, ...ops.map((o) => o.n))
  return (
    <Stack gap="1.5" data-testid="bank-operators">
      <Text fontSize="sm" color="app.muted">
        به تفکیک اپراتور
      </Text>
      {ops.length === 0 ? (
        <Text fontSize="sm" color="app.muted" data-testid="bank-operators-empty">
          برای این محدوده آماری از اپراتورها در دست نیست.
        </Text>
      ) : (
        ops.map((o) => (
          <HStack key={o.name} gap="2" fontSize="sm">
            <Text w="20" flexShrink={0} truncate>
              {o.name}
            </Text>
            <Box flex="1" h="2.5" bg="app.border" rounded="full" overflow="hidden">
              <Box h="full" w={`${(o.n / top) * 100}%`} minW="1" bg="brand.solid" rounded="full" />
            </Box>
            <Text fontWeight="semibold" minW="12" textAlign="end">
              {formatNumber(o.n)}
            </Text>
          </HStack>
        ))
      )}
    </Stack>
  )
}

function Split({ title, labels, values }: { title: string; labels: Record<string, string>; values: Record<string, number> }) {
  return (
    <Stack gap="1">
      <Text fontSize="sm" color="app.muted">
        {title}
      </Text>
      {Object.keys(labels)
        .filter((k) => values[k])
        .map((k) => (
          <HStack key={k} justify="space-between" fontSize="sm">
            <Text>{labels[k]}</Text>
            <Text fontWeight="semibold">{formatNumber(values[k])}</Text>
          </HStack>
        ))}
    </Stack>
  )
}
