import { Alert, Button, HStack } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { DRAFTS_KEY, draftApi, type DraftType } from '../api'
import { draftPath } from './model'

interface Props {
  type: DraftType
  /** The wizard already holds work or resumes a draft: nothing to offer. */
  hidden: boolean
  /** The draft this visit saved itself (never offered back). */
  ownId: number | null
}

/**
 * «پیش‌نویس ذخیره‌شده دارید»: opening a send method whose last draft is waiting offers to
 * continue it (the wizard reopens it with `?draft=`) or to start afresh.
 */
export function ResumeOffer({ type, hidden, ownId }: Props) {
  const navigate = useNavigate()
  const [dismissed, setDismissed] = useState(false)
  const q = useQuery({
    queryKey: [...DRAFTS_KEY, 'latest', type],
    queryFn: ({ signal }) => draftApi.list({ page: 1, limit: 1, type }, signal),
    enabled: !hidden && !dismissed,
  })
  const d = q.data?.rows[0]
  if (hidden || dismissed || !d || d.id === ownId) return null
  return (
    <Alert.Root status="info" rounded="lg" data-testid="draft-offer" flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Content minW="48" flex="1">
        <Alert.Title>پیش‌نویس ذخیره‌شده‌ای از این روش ارسال دارید</Alert.Title>
        <Alert.Description>
          «<bdi>{d.title}</bdi>» — آخرین تغییر {formatJalaliDateTime(d.updated_at)}
        </Alert.Description>
      </Alert.Content>
      <HStack gap="2">
        <Button size="sm" colorPalette="brand" onClick={() => navigate(draftPath(d), { replace: true })} data-testid="draft-offer-resume">
          ادامه پیش‌نویس
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setDismissed(true)} data-testid="draft-offer-dismiss">
          شروع تازه
        </Button>
      </HStack>
    </Alert.Root>
  )
}
