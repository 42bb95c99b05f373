import { Box, Button, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { EmptyState, ErrorState } from '../../components/States'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { SectionCard } from '../../components/SectionCard'
import { useReportList } from '../../lib/reports'
import { SendStatusBadge } from '../../components/StatusBadge'
import { sendTypeLabel } from '../../lib/statuses'
import { RECENT } from './prefetch'

/** The last five sends (GET /report/new_list?page=1&limit=5). */
export function RecentSends() {
  const { data, isPending, isError, refetch } = useReportList(RECENT)
  return (
    <SectionCard
      title="آخرین ارسال‌ها"
      actions={
        <Link asChild fontSize="sm" color="brand.fg">
          <RouterLink to="/reports">همه گزارش‌ها</RouterLink>
        </Link>
      }
    >
      {isPending ? (
        <Stack gap="3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h="14" rounded="lg" />
          ))}
        </Stack>
      ) : isError ? (
        <ErrorState onRetry={() => refetch()} py="6" />
      ) : !data.rows.length ? (
        <EmptyState
          title="هنوز پیامکی ارسال نکرده‌اید"
          py="6"
          action={
            <Button asChild size="sm" colorPalette="brand" mt="2">
              <RouterLink to="/send-sms/quick">اولین ارسال</RouterLink>
            </Button>
          }
        />
      ) : (
        <Stack gap="2" data-testid="recent-sends">
          {data.rows.map((row) => (
            <Box
              asChild
              key={row.id}
              display="block"
              p="3"
              rounded="lg"
              borderWidth="1px"
              borderColor="app.border"
              _hover={{ bg: 'app.raised', borderColor: 'brand.emphasized' }}
            >
              <RouterLink to={`/reports/${row.id}`}>
                <HStack justify="space-between" gap="3">
                  <Stack gap="0.5" minW="0">
                    <HStack gap="2" fontSize="sm" fontWeight="semibold">
                      <Text>{sendTypeLabel(row.type)}</Text>
                      <Text color="app.muted" fontWeight="normal" dir="ltr">
                        {toPersianDigits(row.sender ?? '')}
                      </Text>
                    </HStack>
                    <Text fontSize="xs" color="app.muted">
                      {row.created_at ? formatJalaliDateTime(row.created_at) : ''} · {formatNumber(row.requested ?? 0)} گیرنده
                    </Text>
                  </Stack>
                  <SendStatusBadge status={row.status} />
                </HStack>
              </RouterLink>
            </Box>
          ))}
        </Stack>
      )}
    </SectionCard>
  )
}
