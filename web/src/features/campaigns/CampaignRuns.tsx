import { Badge, HStack, Link, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { SideModal } from '../../components/Overlays'
import { EmptyState, ErrorState } from '../../components/States'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useCampaignRuns, type Campaign } from './api'
import { RUN_STATUS } from './ui'

/** A campaign's runs: when, sent or failed (with the reason), and the send's report. */
export function CampaignRuns({ campaign, onClose }: { campaign: Campaign; onClose: () => void }) {
  const runs = useCampaignRuns(campaign.id)
  let body
  if (runs.isPending) body = <Stack gap="2">{[0, 1, 2].map((i) => <Skeleton key={i} h="14" rounded="lg" />)}</Stack>
  else if (runs.isError) body = <ErrorState onRetry={() => runs.refetch()} />
  else if (!runs.data?.length) body = <EmptyState description="این کمپین هنوز اجرا نشده است." />
  else
    body = (
      <Stack as="ul" gap="2" listStyleType="none" m="0" p="0" aria-label="اجراهای کمپین">
        {runs.data.map((r, i) => (
          <Stack as="li" key={`${r.at}-${i}`} gap="1" p="3" rounded="lg" borderWidth="1px" borderColor="app.border" bg="app.raised">
            <HStack justify="space-between" gap="3">
              <Text fontWeight="semibold">{formatJalaliDateTime(r.at)}</Text>
              <Badge colorPalette={(RUN_STATUS[r.status] ?? RUN_STATUS.failed).color} variant="subtle">
                {(RUN_STATUS[r.status] ?? RUN_STATUS.failed).label}
              </Badge>
            </HStack>
            {r.send_id !== null && r.send_id !== undefined && (
              <Link asChild fontSize="sm" color="brand.fg">
                <RouterLink to={`/reports/${r.send_id}`}>{`گزارش ارسال ${toPersianDigits(String(r.send_id))}`}</RouterLink>
              </Link>
            )}
            {r.status === 'empty' && (
              <Text fontSize="sm" color="app.muted">
                هیچ مخاطبی در این روز مناسبت نداشت؛ پیامکی فرستاده نشد و هزینه‌ای کسر نشد.
              </Text>
            )}
            {r.error && (
              <Text fontSize="sm" color="fg.error">
                {r.error}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    )
  return (
    <SideModal open onClose={onClose} title={`اجراهای «${campaign.title}»`} size="md">
      {body}
    </SideModal>
  )
}
